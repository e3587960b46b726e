import path from 'node:path';
import express, { Router, type Response } from 'express';

/**
 * What the page may load: only its own files and this API. Inline styles set from script (the evidence
 * bars' widths) are CSSOM and need no 'unsafe-inline'.
 */
export const WEB_PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function setHeaders(res: Response, file: string): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'no-referrer');
  if (file.endsWith('.html')) {
    res.setHeader('Content-Security-Policy', WEB_PAGE_CSP);
    res.setHeader('X-Frame-Options', 'DENY');
    // The page names its scripts by content hash: it is asked for afresh, they are kept for good.
    res.setHeader('Cache-Control', 'no-cache');
  } else if (file.includes(`${path.sep}assets${path.sep}`)) {
    res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  }
}

/**
 * The built web page (CONTRACT 5: public, it holds no data): `/` and the files it loads, read from
 * `root`. A path that names no file falls through to the API's 404.
 */
export function createWebPageRouter(root: string): Router {
  const router = Router();
  router.use(express.static(root, { index: 'index.html', redirect: false, dotfiles: 'ignore', setHeaders }));
  return router;
}
