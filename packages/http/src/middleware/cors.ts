import cors from 'cors';
import type { RequestHandler } from 'express';

/** The development origins SPEC 8 allows, with credentials. */
export const ALLOWED_ORIGINS: readonly string[] = [
  'http://localhost:3000',
  'http://localhost:5173',
  'http://127.0.0.1:3000',
];

/**
 * Cross-origin policy of SPEC 4/8: the allowed origins get credentials, every method and whatever
 * headers they ask for (reflected); any other origin gets no CORS header at all.
 */
export function corsPolicy(): RequestHandler {
  const allowed = new Set(ALLOWED_ORIGINS);
  const withCors = cors({
    // Only reached for an allowed origin (below), so reflecting it is safe.
    origin: true,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    // allowedHeaders left unset: the cors package reflects Access-Control-Request-Headers ("all headers").
    exposedHeaders: ['X-Request-ID'],
    maxAge: 600,
  });
  return (req, res, next) => {
    // Responses differ by Origin, so shared caches must key on it.
    res.vary('Origin');
    const origin = req.get('origin');
    if (origin !== undefined && allowed.has(origin)) {
      withCors(req, res, next);
      return;
    }
    next();
  };
}
