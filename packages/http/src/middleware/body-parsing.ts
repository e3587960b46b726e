import express, { type Request, type RequestHandler } from 'express';
import type { AppConfig } from '@research/core';
import { AppError } from '@research/core';

/** CONTRACT 4: bodies above this answer 413. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

// Multipart framing and the text fields beside an audio file (multer reads at most 10 fields of 8 KiB).
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

/** The largest JSON body of `POST /vision/analyze`: a base64 image of VISION_MAX_IMAGE_BYTES and its fields. */
export function visionBodyLimitBytes(config: AppConfig): number {
  return Math.ceil((config.vision.maxImageBytes * 4) / 3) + 64 * 1024;
}

/** The largest body a request to this route may declare: vision and audio uploads have their own limits. */
export function bodyLimitOf(req: Request, config: AppConfig): number {
  // Express matches paths case-insensitively and with or without a trailing slash; so does this.
  const path = req.path.toLowerCase().replace(/\/+$/, '');
  if (path === '/vision/analyze') return visionBodyLimitBytes(config);
  if (path === '/audio/transcribe' && req.is('multipart/form-data')) {
    return config.audio.maxBytes + MULTIPART_OVERHEAD_BYTES;
  }
  return BODY_LIMIT_BYTES;
}

/**
 * Answers 413 from the Content-Length header alone when it declares more than the route reads, before
 * any key check or byte of the body, and closes the connection: the parsers would otherwise read (or
 * wait for) the whole declared body before answering. Chunked bodies are counted by the parsers.
 */
export function refuseOversizedBodies(config: AppConfig): RequestHandler {
  return (req, res, next) => {
    const declared = req.headers['content-length'];
    if (declared === undefined) return next();
    const limit = bodyLimitOf(req, config);
    // Node's parser has already refused anything but one run of digits.
    if (Number(declared) <= limit) return next();
    res.setHeader('Connection', 'close');
    if (limit === BODY_LIMIT_BYTES) {
      // body-parser's own error, so the error handler gives it the same text as a body counted too large.
      next(
        Object.assign(new Error('request entity too large'), { status: 413, expose: true, type: 'entity.too.large' }),
      );
      return;
    }
    next(new AppError('payload_too_large', `Request body too large (limit ${limit} bytes).`));
  };
}

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
