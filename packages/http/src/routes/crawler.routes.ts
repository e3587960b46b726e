import { Router } from 'express';
import type { AppContext } from '../context';
import { jsonBody } from '../middleware/body-parsing';
import { requireApiKey } from '../middleware/authenticate';
import { presentBatch, presentDocument, presentValidation } from '../presenters/mounted.presenter';
import { principalOf } from '../request-scope';
import { requestSignal } from '../request-signal';
import { fetchBatch, fetchOne, validateOne } from '@research/runs';
import { parseBody } from '../validation';
import { crawlerBatchBodySchema, crawlerFetchBodySchema, validateUrlBodySchema } from './crawler.schemas';

/**
 * `/crawler`: the pipeline's guarded crawler for one URL, a bounded batch, or a dry check. The SSRF
 * guard, robots.txt, byte caps and per-caller limits apply exactly as in a run; only extracted text of
 * documents is returned, never raw bytes.
 */
export function createCrawlerRouter(ctx: AppContext): Router {
  const { tools } = ctx;
  const router = Router();
  // The key is checked per route, so an unknown path stays a 404 without one (as elsewhere).
  router.use(['/fetch', '/validate-url'], requireApiKey(ctx), jsonBody());

  router.post('/fetch', async (req, res) => {
    const input = parseBody(crawlerFetchBodySchema, req.body, { required: true });
    const document = await fetchOne(tools, principalOf(res).userId, input, requestSignal(res));
    res.json(presentDocument(document, input.max_chars));
  });

  router.post('/fetch/batch', async (req, res) => {
    const input = parseBody(crawlerBatchBodySchema, req.body, { required: true });
    const items = await fetchBatch(tools, principalOf(res).userId, input, requestSignal(res));
    res.json(presentBatch(items, input.max_chars));
  });

  router.post('/validate-url', async (req, res) => {
    const input = parseBody(validateUrlBodySchema, req.body, { required: true });
    res.json(presentValidation(input.url, await validateOne(tools, principalOf(res).userId, input.url)));
  });

  return router;
}
