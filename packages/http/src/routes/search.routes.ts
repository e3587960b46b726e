import { Router } from 'express';
import type { AppContext } from '../context';
import { jsonBody } from '../middleware/body-parsing';
import { requireApiKey } from '../middleware/authenticate';
import type { KeyQuota } from '../middleware/key-quotas';
import { principalOf } from '../request-scope';
import { requestSignal } from '../request-signal';
import { searchOnce } from '@research/runs';
import { parseBody } from '../validation';
import { searchBodySchema, type SearchResponse } from './search.schemas';

/** `POST /search`: one query through a configured search provider, within the key's search quota. */
export function createSearchRouter(ctx: AppContext, quota: KeyQuota): Router {
  const { tools } = ctx;
  const router = Router();
  // The key is checked per route, so an unknown path stays a 404 without one (as elsewhere).
  router.post('/', requireApiKey(ctx), jsonBody(), async (req, res) => {
    const input = parseBody(searchBodySchema, req.body, { required: true });
    // The quota counts valid requests only: a rejected body or an unconfigured provider costs nothing.
    const { keyId } = principalOf(res);
    const { provider, hits } = await searchOnce({
      tools,
      metrics: ctx.metrics,
      input,
      signal: requestSignal(res),
      admit: () => quota.take(keyId),
    });
    res.json({
      query: input.query,
      provider,
      language: input.language,
      results: hits.map((h) => ({
        url: h.url,
        title: h.title,
        snippet: h.snippet,
        published_at: h.published_at,
        provider: h.provider,
        rank: h.rank,
      })),
      total: hits.length,
    } satisfies SearchResponse);
  });
  return router;
}
