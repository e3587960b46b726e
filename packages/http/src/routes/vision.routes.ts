import { Router, type RequestHandler } from 'express';
import type { AppConfig } from '@research/core';
import type { AppContext } from '../context';
import { requireApiKey } from '../middleware/authenticate';
import { jsonBody } from '../middleware/body-parsing';
import { reserveOutboundSlot } from '../middleware/outbound-slot';
import { outboundOf, scopeOf } from '../request-scope';
import { requestSignal } from '../request-signal';
import { analyzeImage, assertVisionConfigured } from '@research/runs';
import { parseBody } from '../validation';
import { visionBodySchema, type VisionResponse } from './vision.schemas';

/** The largest JSON body of `POST /vision/analyze`: a base64 image of VISION_MAX_IMAGE_BYTES and its fields. */
function visionBodyLimitBytes(config: AppConfig): number {
  return Math.ceil((config.vision.maxImageBytes * 4) / 3) + 64 * 1024;
}

/**
 * `POST /vision/analyze`. Its JSON body may exceed the service's 1 MiB (CONTRACT 4) by what a base64
 * image of VISION_MAX_IMAGE_BYTES needs: the one route besides audio uploads with a larger body.
 */
export function createVisionRouter(ctx: AppContext): Router {
  const { tools } = ctx;
  const router = Router();
  const body = jsonBody(visionBodyLimitBytes(ctx.config));
  // Without a model nothing is read: 503 before a large body is parsed.
  const configured: RequestHandler = (_req, _res, next) => {
    assertVisionConfigured(ctx.config);
    next();
  };
  // The key is checked for this path only, so an unknown path stays a 404 without one (as elsewhere). The
  // caller's outbound slot is taken before the body is read: at its limit, a caller's upload is never buffered.
  router.use('/analyze', requireApiKey(ctx), configured, reserveOutboundSlot(tools), body);
  router.post('/analyze', async (req, res) => {
    const input = parseBody(visionBodySchema, req.body, { required: true });
    const result = await analyzeImage({
      tools,
      config: ctx.config,
      scope: scopeOf(res),
      outbound: outboundOf(res),
      input,
      signal: requestSignal(res),
    });
    res.json(result satisfies VisionResponse);
  });
  return router;
}
