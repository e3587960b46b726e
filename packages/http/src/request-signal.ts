import type { Response } from 'express';

/**
 * Aborted when the client goes away before the answer is sent: outbound work of the mounted routes
 * (provider calls, downloads) stops instead of finishing for nobody.
 */
export function requestSignal(res: Response): AbortSignal {
  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new Error('client disconnected'));
  });
  return controller.signal;
}
