import type { RequestHandler } from 'express';
import { principalOf } from '../request-scope';
import type { ResearchTools } from '@research/runs';

/**
 * Reserves one of the caller's outbound slots before the body is read and holds it until the response
 * has ended (res.locals.outbound): a caller at its limit gets its 429 before a large upload is buffered.
 * Mount behind requireApiKey.
 */
export function reserveOutboundSlot(tools: ResearchTools): RequestHandler {
  return (_req, res, next) => {
    const lease = tools.reserveOutbound(principalOf(res).userId);
    res.locals.outbound = lease;
    // 'close' follows every response, sent or abandoned by the client.
    res.once('close', () => lease.release());
    next();
  };
}
