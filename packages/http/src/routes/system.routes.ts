import { Router } from 'express';
import { VERSION } from '@research/core';
import { METRICS_CONTENT_TYPE, renderFleetMetrics, type MetricSnapshot } from '@research/observability';
import type { AppContext } from '../context';
import { presentProviders } from '../presenters/system.presenter';
import { loggerOf } from '../request-scope';
import { checkReadiness } from '../services/readiness.service';
import type { HealthResponse } from './system.schemas';

/** SPEC 4.1 system endpoints; all public (CONTRACT 4). */
export function createSystemRouter(ctx: AppContext): Router {
  const router = Router();

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', version: VERSION } satisfies HealthResponse);
  });

  // Always 200: `status` says whether every checked dependency answered.
  router.get('/ready', async (_req, res) => {
    res.json(await checkReadiness(ctx));
  });

  router.get('/providers', (_req, res) => {
    res.json(presentProviders(ctx.config));
  });

  // The API's own metrics plus every live worker's published counters (CONTRACT 4).
  router.get('/metrics', async (_req, res) => {
    let peers: MetricSnapshot[] = [];
    try {
      peers = await ctx.fleetSnapshots();
    } catch (error) {
      loggerOf(res).warn('could not read worker metrics; serving this process only', { error });
    }
    let text: string;
    try {
      text = await renderFleetMetrics(ctx.metrics, peers);
    } catch (error) {
      loggerOf(res).warn('could not aggregate worker metrics; serving this process only', { error });
      text = await renderFleetMetrics(ctx.metrics, []);
    }
    res.set('Content-Type', METRICS_CONTENT_TYPE).send(text);
  });

  return router;
}
