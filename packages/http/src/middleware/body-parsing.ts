import express, { type RequestHandler } from 'express';

/** CONTRACT 4: bodies above this answer 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Parses JSON bodies (`application/json` and any `+json` type) up to 1 MiB. Any other content type is
 * left unparsed, so the body counts as absent. Non-strict: a JSON scalar parses and then fails
 * validation with 422 `body: …` instead of looking like broken JSON.
 */
export function jsonBody(): RequestHandler {
  const parse = express.json({ limit: BODY_LIMIT_BYTES, strict: false, type: ['application/json', '+json'] });
  return (req, res, next) => {
    // A request without Content-Length and Transfer-Encoding has no body (the parser's own test):
    // every GET of a polling client. Skipping the parser's bookkeeping leaves req.body undefined as it would.
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) {
      next();
      return;
    }
    parse(req, res, next);
  };
}
