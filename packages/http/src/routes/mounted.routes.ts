import { Router } from 'express';
import type { AppContext } from '../context';
import type { KeyQuotas } from '../middleware/key-quotas';
import type { ResearchTools } from '../services/research-tools';
import { createAudioRouter } from './audio.routes';
import { createCrawlerRouter } from './crawler.routes';
import { createRunAnalysisRouter } from './run-analysis.routes';
import { createSearchRouter } from './search.routes';
import { createVisionRouter } from './vision.routes';

/**
 * The route groups of SPEC 1.8 / 4.14, each under its own prefix with its own key check (CONTRACT 4:
 * every route but the system ones needs a key). Paths outside these prefixes fall through.
 */
export function createMountedRouter(ctx: AppContext, tools: ResearchTools, quotas: KeyQuotas): Router {
  const router = Router();
  router.use('/search', createSearchRouter(ctx, tools, quotas.searches));
  router.use('/crawler', createCrawlerRouter(ctx, tools));
  router.use('/research', createRunAnalysisRouter(ctx, tools));
  router.use('/vision', createVisionRouter(ctx, tools));
  router.use('/audio', createAudioRouter(ctx, tools));
  return router;
}
