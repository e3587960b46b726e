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
 * Sets X-Request-ID on every response, keeps the request id and the root logger on res.locals (the
 * child logger carrying `request_id` is built on first use, see loggerOf), and writes one access line
 * per request (method, path without query string, status, duration, request id; no headers).
 */
export function requestContext(rootLogger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    const requestId = resolveRequestId(req.get('x-request-id'));
    res.setHeader('X-Request-ID', requestId);
    const locals = res.locals as RequestLocals;
    locals.requestId = requestId;
    locals.rootLogger = rootLogger;
    // 'close' follows 'finish' on every response, and comes alone when the client went away first.
    res.once('close', () => {
      // Through the root logger with request_id as a field: the same line as a child logger's, without
      // building one per request.
      rootLogger.info('request', {
        request_id: requestId,
        method: req.method,
        // The query string may carry anything a client typed; the path alone identifies the route.
        path: req.originalUrl.split('?')[0],
        status: res.statusCode,
        duration_ms: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        ...(res.writableFinished ? {} : { aborted: true }),
      });
    });
    next();
  };
}
