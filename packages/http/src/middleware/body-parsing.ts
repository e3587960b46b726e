import express, { type RequestHandler } from 'express';
import { AppError } from '@research/core';

/** CONTRACT 4: bodies above this answer 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

const MiB = 1024 * 1024;

/** The one 413 of a body over a route's limit, naming that limit. */
export function bodyTooLarge(limitBytes: number): AppError {
  const limit = limitBytes % MiB === 0 ? `${limitBytes / MiB} MiB` : `${limitBytes} bytes`;
  return new AppError('payload_too_large', `Request body too large (limit ${limit}).`);
}

/**
 * Answers 413 from the Content-Length header alone when it declares more than `limitBytes`, before any
 * byte of the body is read, and closes the connection: a parser would otherwise read (or wait for) the
 * whole declared body, and Node would drain it after the answer. Mount right before the route's parser;
 * chunked bodies are counted by the parser itself.
 */
export function refuseDeclaredOver(limitBytes: number): RequestHandler {
  return (req, res, next) => {
    const declared = req.headers['content-length'];
    // Node's parser has already refused anything but one run of digits.
    if (declared === undefined || Number(declared) <= limitBytes) return next();
    res.setHeader('Connection', 'close');
    next(bodyTooLarge(limitBytes));
  };
}

/**
 * Parses JSON bodies (`application/json` and any `+json` type) up to `limitBytes` (1 MiB unless the route
 * reads more), refusing a larger declared body before reading it. Any other content type is left
 * unparsed, so the body counts as absent. Non-strict: a JSON scalar parses and then fails validation with
 * 422 `body: …` instead of looking like broken JSON.
 */
export function jsonBody(limitBytes = BODY_LIMIT_BYTES): RequestHandler {
  const refuseOversized = refuseDeclaredOver(limitBytes);
  const parse = express.json({ limit: limitBytes, strict: false, type: ['application/json', '+json'] });
  return (req, res, next) => {
    refuseOversized(req, res, (refused?: unknown) => {
      if (refused !== undefined) return next(refused);
      // A request without Content-Length and Transfer-Encoding has no body (the parser's own test):
      // every GET of a polling client. Skipping the parser's bookkeeping leaves req.body undefined as it would.
      if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) return next();
      parse(req, res, (error?: unknown) => {
        // A chunked body counted past the limit: the same text as one declared too large.
        const tooLarge = (error as { type?: unknown } | undefined)?.type === 'entity.too.large';
        next(tooLarge ? bodyTooLarge(limitBytes) : error);
      });
    });
  };
}
