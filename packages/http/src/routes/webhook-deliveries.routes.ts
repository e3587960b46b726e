import type { RequestHandler } from 'express';
import type { AppContext } from '../context';
import { visibleRunOf } from '../request-scope';
import { listWebhookDeliveries } from '@research/runs';
import type { WebhookDeliveriesResponse } from './webhook-deliveries.schemas';

/** GET /v1/research/{id}/webhook-deliveries: every attempt at the run's webhook (read rules of GET /v1/research/{id}). */
export function webhookDeliveriesHandler(ctx: Pick<AppContext, 'db'>): RequestHandler {
  return async (req, res) => {
    const run = visibleRunOf(res, String(req.params.id));
    const attempts = await listWebhookDeliveries(ctx.db, run.id);
    res.json({
      research_id: run.id,
      items: attempts.map((a) => ({
        attempt: a.attempt,
        at: a.at.toISOString(),
        event: a.event,
        status_code: a.status_code,
        error: a.error,
      })),
    } satisfies WebhookDeliveriesResponse);
  };
}
