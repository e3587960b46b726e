import type { Request, Response } from 'express';
import type { AppContext } from '../context';
import { presentManifest } from '../presenters/manifest.presenter';
import { visibleRunOf } from '../request-scope';
import { getRunRecord, getRunSourceContent } from '@research/runs';
import type { RunManifestResponse, SourceContentResponse } from './research-evidence.schemas';

/**
 * GET /v1/research/{id}/sources/{source_id}/content (after the key and the run are checked): the exact text
 * the source's claims were taken from and its SHA-256. Read rules as GET /v1/research/{id}; a source id that
 * is not one of the run's is 404 too.
 */
export function sourceContentHandler(ctx: AppContext) {
  return async (req: Request<{ id: string; source_id: string }>, res: Response): Promise<void> => {
    const run = visibleRunOf(res, req.params.id);
    const source = await getRunSourceContent(ctx.db, run, req.params.source_id);
    res.json({ content_sha256: source.content_sha256, text: source.content } satisfies SourceContentResponse);
  };
}

/**
 * GET /v1/research/{id}/manifest (after the key and the run are checked): version, configuration without
 * secrets, budgets and their use, engines, fallbacks, queries and every URL tried.
 */
export function runManifestHandler(ctx: AppContext) {
  return async (req: Request<{ id: string }>, res: Response): Promise<void> => {
    const run = visibleRunOf(res, req.params.id);
    const record = await getRunRecord(ctx.db, run);
    res.json(presentManifest(record, ctx.config) satisfies RunManifestResponse);
  };
}
