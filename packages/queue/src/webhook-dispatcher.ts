import { startPeriodicPass } from '@research/core';
import { listDueWebhookDeliveries, type Database } from '@research/database';
import type { Logger } from '@research/observability';
import type { WebhookQueue } from './webhook-job';

/** How often due deliveries are looked for: a run's end is announced within about this long. */
export const WEBHOOK_DISPATCH_INTERVAL_MS = 1000;

/**
 * Enqueues every webhook delivery that is due: a run that just ended (whoever ended it: worker, API,
 * reconciler), an attempt whose job was lost (a Redis restarted empty, an in-process queue restarted), an
 * attempt whose worker died mid-way (due again after its lease). Idempotent: the job id is the delivery id,
 * and a job re-reads its row before it sends anything.
 */
export function startWebhookDispatcher(params: {
  db: Database;
  queue: WebhookQueue;
  logger: Logger;
  intervalMs?: number;
  batchSize?: number;
}): { stop(): Promise<void> } {
  const { db, queue, logger } = params;
  async function pass(stopping: () => boolean): Promise<void> {
    try {
      const due = await listDueWebhookDeliveries(db, params.batchSize ?? 100);
      for (const delivery of due) {
        if (stopping()) return;
        await queue.enqueue({ delivery_id: delivery.id });
      }
    } catch (error) {
      logger.warn('webhook dispatch pass failed; retrying on the next tick', { error });
    }
  }

  const dispatcher = startPeriodicPass(pass, {
    intervalMs: params.intervalMs ?? WEBHOOK_DISPATCH_INTERVAL_MS,
    immediate: true,
  });
  return { stop: () => dispatcher.stop() };
}
