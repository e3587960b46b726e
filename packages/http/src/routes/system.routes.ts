import { Router } from 'express';
import { VERSION } from '@research/core';
import { METRICS_CONTENT_TYPE, renderFleetMetrics, type MetricSnapshot } from '@research/observability';
import type { AppContext } from '../context';
import { presentProviders } from '../presenters/system.presenter';
import { loggerOf } from '../request-scope';
import { checkReadiness } from '@research/runs';
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

  // The counters of every API and worker process, added up (CONTRACT 4), and this process's gauges.
  router.get('/metrics', async (_req, res) => {
    let fleet: MetricSnapshot | null = null;
    try {
      fleet = await ctx.fleetMetrics();
    } catch (error) {
      loggerOf(res).warn('could not read the fleet metrics; serving this process only', { error });
    }
    let text: string;
    try {
      text = await renderFleetMetrics(ctx.metrics, fleet);
    } catch (error) {
      loggerOf(res).warn('could not aggregate the fleet metrics; serving this process only', { error });
      text = await renderFleetMetrics(ctx.metrics, null);
    }
    res.set('Content-Type', METRICS_CONTENT_TYPE).send(text);
  });

  return router;
}
