import { Router } from 'express';
import type { AppContext } from '../context';
import type { KeyQuotas } from '../middleware/key-quotas';
import { createAudioRouter } from './audio.routes';
import { createCrawlerRouter } from './crawler.routes';
import { createRunAnalysisRouter } from './run-analysis.routes';
import { createSearchRouter } from './search.routes';
import { createVisionRouter } from './vision.routes';

/**
 * The route groups of SPEC 1.8 / 4.14, each under its own prefix with its own key check (CONTRACT 4:
 * every route but the system ones needs a key). Paths outside these prefixes fall through.
 */
export function createMountedRouter(ctx: AppContext, quotas: KeyQuotas): Router {
  const router = Router();
  router.use('/search', createSearchRouter(ctx, quotas.searches));
  router.use('/crawler', createCrawlerRouter(ctx));
  router.use('/research', createRunAnalysisRouter(ctx));
  router.use('/vision', createVisionRouter(ctx));
  router.use('/audio', createAudioRouter(ctx));
  return router;
}
