import { STATUS_CODES } from 'node:http';
import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import { isAppError, isDependencyUnavailable } from '@research/core';
import type { Logger } from '@research/observability';
import { loggerOf } from '../request-scope';

export const INTERNAL_ERROR_DETAIL = 'Internal server error';

// body-parser reports its failures with a `type`; each gets a fixed, client-safe text.
const BODY_ERROR_DETAILS: Readonly<Record<string, string>> = {
  'entity.parse.failed': 'Malformed JSON body.',
  'encoding.unsupported': 'Unsupported content encoding.',
  'charset.unsupported': 'Unsupported charset.',
  'request.aborted': 'Request aborted.',
  'request.size.invalid': 'Request body size does not match Content-Length.',
};

interface HttpLikeError {
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
}

function clientStatus(error: unknown): number | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as HttpLikeError;
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  // Only errors that http-errors marks as exposable (4xx from body-parser, the router, …) keep their status.
  return status !== undefined && status >= 400 && status < 500 && e.expose !== false ? status : undefined;
}

export const DEPENDENCY_UNAVAILABLE_DETAIL = 'The service is temporarily unavailable (database or queue unreachable).';

/** Seconds a client is asked to wait when the database or Redis is unreachable (Retry-After). */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/** How the API answers an error. */
export interface ErrorAnswer {
  status: number;
  detail: string;
  /** Sent as `Retry-After`: the client may ask again after this many seconds. */
  retryAfterSeconds?: number;
  /** The database or Redis is unreachable: expected to pass, so logged as a warning, not per-request errors. */
  dependencyOutage?: true;
}

/**
 * Status, `detail` and `Retry-After` for any error: AppErrors say what they mean, client errors get a fixed
 * text, an unreachable database or Redis is a 503 the client may retry, the rest is a 500.
 */
export function classifyError(error: unknown): ErrorAnswer {
  if (isDependencyUnavailable(error)) {
    return {
      status: 503,
      detail: DEPENDENCY_UNAVAILABLE_DETAIL,
      retryAfterSeconds: DEPENDENCY_RETRY_AFTER_SECONDS,
      dependencyOutage: true,
    };
  }
  if (isAppError(error)) {
    // A 503 says which dependency is missing or failing (its text is written for clients); other 5xx hide theirs.
    const detail = error.status >= 500 && error.code !== 'unavailable' ? INTERNAL_ERROR_DETAIL : error.message;
    return error.retryAfterSeconds === undefined
      ? { status: error.status, detail }
      : { status: error.status, detail, retryAfterSeconds: error.retryAfterSeconds };
  }
  const status = clientStatus(error);
  if (status !== undefined) {
    const type = (error as HttpLikeError).type;
    const detail = (typeof type === 'string' && BODY_ERROR_DETAILS[type]) || STATUS_CODES[status] || 'Bad Request';
    return { status, detail };
  }
  return { status: 500, detail: INTERNAL_ERROR_DETAIL };
}

/**
 * A request answered before its body was read (a refused key, an unknown path, a failure before the
 * parser) closes its connection: keeping it would mean reading, or waiting for, all the client declared.
 */
function closeIfBodyUnread(req: Request, res: Response): void {
  if (!req.complete) res.set('Connection', 'close');
}

/** 404 for every path no router answered (no key needed to learn that a route does not exist). */
export const notFoundHandler: RequestHandler = (req, res) => {
  closeIfBodyUnread(req, res);
  res.status(404).json({ detail: 'Not Found' });
};

/** The one error handler: `{"detail": …}` always, never a stack or an internal message; 5xx are logged. */
export function errorHandler(rootLogger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    const { status, detail, retryAfterSeconds, dependencyOutage } = classifyError(error);
    if (dependencyOutage) {
      // An outage is expected to pass: a warning without the stack, not an error per request.
      loggerOf(res, rootLogger).warn('request failed: a dependency is unreachable', {
        error: { name: (error as Error).name, message: (error as Error).message },
      });
    } else if (status >= 500) {
      const { name, message, stack } = (error ?? {}) as { name?: unknown; message?: unknown; stack?: unknown };
      loggerOf(res, rootLogger).error('request failed', {
        error: {
          name: typeof name === 'string' ? name : 'Error',
          message: typeof message === 'string' ? message : String(error),
        },
        ...(typeof stack === 'string' ? { stack } : {}),
      });
    }
    // Too late to answer (a stream broke mid-response): Express closes the connection.
    if (res.headersSent) {
      next(error);
      return;
    }
    closeIfBodyUnread(req, res);
    if (retryAfterSeconds !== undefined) res.set('Retry-After', String(retryAfterSeconds));
    res.status(status).json({ detail });
  };
}
