import { Router } from 'express';
import type { AppContext } from '../context';
import { jsonBody } from '../middleware/body-parsing';
import { requireApiKey } from '../middleware/authenticate';
import {
  presentClaims,
  presentCreatedRun,
  presentEvidence,
  presentListItem,
  presentPlan,
  presentReport,
  presentRunStatus,
  presentSources,
} from '../presenters/research.presenter';
import { scopeOf } from '../request-scope';
import {
  getRunClaims,
  getRunEvidence,
  getRunReport,
  getRunSources,
  getVisibleRun,
  listRuns,
} from '../services/research-reads.service';
import { createResearchRun, protectRun, softDeleteRun, unprotectRun } from '../services/research.service';
import { parseBody, parseQuery } from '../validation';
import {
  createResearchBodySchema,
  deleteResearchBodySchema,
  listResearchQuerySchema,
  removeProtectionBodySchema,
  setProtectionBodySchema,
  type HideResponse,
  type ProtectionResponse,
  type ResearchListResponse,
} from './research.schemas';

/**
 * `/v1/research` (SPEC 4.2–4.11). Reads are open to any authenticated caller (the list is not filtered by
 * owner); deletion and protection are for the owner or an administrator.
 */
export function createResearchRouter(ctx: AppContext): Router {
  const router = Router();
  // The key is checked before the body is read: an anonymous client never makes us parse 1 MiB.
  router.use(requireApiKey(ctx), jsonBody());

  router.post('/', async (req, res) => {
    const input = parseBody(createResearchBodySchema, req.body, { required: true });
    const run = await createResearchRun(ctx, scopeOf(res), input);
    res.json(presentCreatedRun(run));
  });

  router.get('/', async (req, res) => {
    const page = parseQuery(listResearchQuerySchema, req.query);
    const { total, items } = await listRuns(ctx.db, page);
    res.json({
      total,
      limit: page.limit,
      offset: page.offset,
      items: items.map(presentListItem),
    } satisfies ResearchListResponse);
  });

  router.get('/:id', async (req, res) => {
    res.json(presentRunStatus(await getVisibleRun(ctx.db, req.params.id)));
  });

  router.get('/:id/status', async (req, res) => {
    res.json(presentRunStatus(await getVisibleRun(ctx.db, req.params.id)));
  });

  router.get('/:id/sources', async (req, res) => {
    const { run, sources } = await getRunSources(ctx.db, req.params.id);
    res.json(presentSources(run.id, sources));
  });

  router.get('/:id/claims', async (req, res) => {
    const { run, claims } = await getRunClaims(ctx.db, req.params.id);
    res.json(presentClaims(run.id, claims));
  });

  router.get('/:id/evidence', async (req, res) => {
    const { run, evidence } = await getRunEvidence(ctx.db, req.params.id);
    res.json(presentEvidence(run.id, evidence));
  });

  router.get('/:id/plan', async (req, res) => {
    res.json(presentPlan(await getVisibleRun(ctx.db, req.params.id)));
  });

  router.get('/:id/report', async (req, res) => {
    const { run, report } = await getRunReport(ctx.db, req.params.id);
    res.json(presentReport(run, report));
  });

  router.delete('/:id', async (req, res) => {
    const input = parseBody(deleteResearchBodySchema, req.body, { required: false });
    const { research_id } = await softDeleteRun(ctx, scopeOf(res), req.params.id, input);
    res.json({ status: 'hidden', research_id } satisfies HideResponse);
  });

  router.put('/:id/deletion-protection', async (req, res) => {
    const input = parseBody(setProtectionBodySchema, req.body, { required: true });
    await protectRun(ctx, scopeOf(res), req.params.id, input);
    res.json({ is_deletion_protected: true } satisfies ProtectionResponse);
  });

  router.delete('/:id/deletion-protection', async (req, res) => {
    const input = parseBody(removeProtectionBodySchema, req.body, { required: true });
    await unprotectRun(ctx, scopeOf(res), req.params.id, input);
    res.json({ is_deletion_protected: false } satisfies ProtectionResponse);
  });

  return router;
}
