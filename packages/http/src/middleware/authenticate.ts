import type { RequestHandler } from 'express';
import { AppError, Details } from '@research/core';
import { authenticateApiKey } from '@research/auth';
import type { AppContext } from '../context';
import { principalOf } from '../request-scope';
import { authenticateRunRead } from '../services/research-reads.service';

/**
 * Resolves `X-API-Key` to the caller (res.locals.principal) or answers 401. Every router that needs a
 * key mounts it first (CONTRACT 4: only /health, /ready, /providers and /metrics are public).
 */
export function requireApiKey(ctx: Pick<AppContext, 'db'>): RequestHandler {
  return async (req, res, next) => {
    res.locals.principal = await authenticateApiKey(ctx.db, req.get('x-api-key'));
    next();
  };
}

/**
 * requireApiKey for the reads of one run (`/:id…`): the same checks and 401s, with the visible run `:id`
 * read in the same statement (res.locals.visibleRun; null when malformed, unknown or hidden). The
 * handler answers 404 for null, so a bad key is still 401 before any 404.
 */
export function requireApiKeyAndRun(ctx: Pick<AppContext, 'db'>): RequestHandler<{ id: string }> {
  return async (req, res, next) => {
    const { principal, run } = await authenticateRunRead(ctx.db, req.get('x-api-key'), req.params.id);
    res.locals.principal = principal;
    res.locals.visibleRun = run ?? null;
    next();
  };
}

/** Lets only administrators through (SPEC 4.12); mount behind requireApiKey. */
export const requireAdmin: RequestHandler = (_req, res, next) => {
  if (!principalOf(res).isAdmin) throw new AppError('forbidden', Details.adminRequired);
  next();
};
