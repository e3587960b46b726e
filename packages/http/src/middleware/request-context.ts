import crypto from 'node:crypto';
import type { RequestHandler } from 'express';
import type { Logger } from '@research/observability';
import type { RequestLocals } from '../request-scope';

// CONTRACT 4: a client's id is echoed only when it is short and plain, so it is safe in headers and logs.
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The request id of a request: the client's X-Request-ID when acceptable, otherwise a new UUID. */
export function resolveRequestId(header: string | undefined): string {
  return header !== undefined && CLIENT_REQUEST_ID.test(header) ? header : crypto.randomUUID();
}

/**
 * Sets X-Request-ID on every response, puts a child logger carrying `request_id` on res.locals, and
 * writes one access line per request (method, path without query string, status, duration; no headers).
 */
export function requestContext(rootLogger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const requestId = resolveRequestId(req.get('x-request-id'));
    const logger = rootLogger.child({ request_id: requestId });
    res.setHeader('X-Request-ID', requestId);
    Object.assign(res.locals, { requestId, logger } satisfies RequestLocals);

    let logged = false;
    const accessLog = () => {
      if (logged) return;
      logged = true;
      logger.info('request', {
        method: req.method,
        // The query string may carry anything a client typed; the path alone identifies the route.
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        duration_ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        ...(res.writableFinished ? {} : { aborted: true }),
      });
    };
    res.once('finish', accessLog);
    res.once('close', accessLog);
    next();
  };
}
