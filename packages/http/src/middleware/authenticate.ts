import type { Request, RequestHandler } from 'express';
import { AppError, Details } from '@research/core';
import { authenticateApiKey } from '@research/auth';
import type { AppContext } from '../context';
import { principalOf } from '../request-scope';
import { authenticateRunRead } from '@research/runs';

/** Where a request presents its API key. */
export type PresentedKey = (req: Request) => string | undefined;

/** The `X-API-Key` header: how every route of SPEC takes the key. */
export const xApiKey: PresentedKey = (req) => req.get('x-api-key');

/**
 * `X-API-Key`, or else the token of `Authorization: Bearer <key>`: how MCP clients send a key (`/mcp`).
 */
export const xApiKeyOrBearer: PresentedKey = (req) =>
  req.get('x-api-key') ?? /^Bearer +(\S+) *$/i.exec(req.get('authorization') ?? '')?.[1];

/**
 * Resolves the key a request presents (`X-API-Key` unless told otherwise) to the caller
 * (res.locals.principal) or answers 401. Every router that needs a key mounts it first (CONTRACT 4: only
 * /health, /ready, /providers and /metrics are public).
 */
export function requireApiKey(ctx: Pick<AppContext, 'db'>, presentedKey: PresentedKey = xApiKey): RequestHandler {
  return async (req, res, next) => {
    res.locals.principal = await authenticateApiKey(ctx.db, presentedKey(req));
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
