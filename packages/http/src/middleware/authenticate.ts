import type { RequestHandler } from 'express';
import { AppError, Details } from '@research/core';
import { authenticateApiKey } from '@research/auth';
import type { AppContext } from '../context';
import { principalOf } from '../request-scope';

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

/** Lets only administrators through (SPEC 4.12); mount behind requireApiKey. */
export const requireAdmin: RequestHandler = (_req, res, next) => {
  if (!principalOf(res).isAdmin) throw new AppError('forbidden', Details.adminRequired);
  next();
};
