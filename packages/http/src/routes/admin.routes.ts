import { Router } from 'express';
import type { AppContext } from '../context';
import { requireAdmin, requireApiKey } from '../middleware/authenticate';
import { presentHiddenRun } from '../presenters/admin.presenter';
import { scopeOf } from '../request-scope';
import { listHiddenRuns, purgeRun } from '@research/runs';
import type { HiddenRunsResponse, PurgeResponse } from './admin.schemas';

/** `/v1/admin` (SPEC 4.12–4.13): administrators only. */
export function createAdminRouter(ctx: AppContext): Router {
  const router = Router();
  router.use(requireApiKey(ctx), requireAdmin);

  router.get('/research/deleted', async (_req, res) => {
    const records = await listHiddenRuns(ctx);
    res.json(records.map(presentHiddenRun) satisfies HiddenRunsResponse);
  });

  router.delete('/research/:id', async (req, res) => {
    const { research_id } = await purgeRun(ctx, scopeOf(res), req.params.id);
    res.json({ status: 'purged', research_id } satisfies PurgeResponse);
  });

  return router;
}
