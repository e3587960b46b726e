import type { Logger } from '@research/observability';
import { webhookJobPayloadSchema, type WebhookJobHandler, type WebhookQueue } from './webhook-job';

/**
 * The webhook queue of `npm start` without REDIS_URL: attempts run in this process, one job per delivery,
 * at most `concurrency` at once. What is waiting is lost with the process, not the delivery: its row stays
 * due and the dispatcher enqueues it at the next start.
 */
export function createInProcessWebhookQueue(params: {
  concurrency: number;
  handler: WebhookJobHandler;
  logger: Logger;
}): WebhookQueue {
  const { handler, logger } = params;
  const jobs = new Set<string>();
  const waiting: string[] = [];
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let closing = false;

  function pump(): void {
    while (!closing && running.size < params.concurrency && waiting.length > 0) {
      const id = waiting.shift()!;
      const done = attempt(id).finally(() => {
        running.delete(done);
        pump();
      });
      running.add(done);
    }
  }

  async function attempt(id: string): Promise<void> {
    try {
      const outcome = await handler({ delivery_id: id }, logger.child({ job_id: id }));
      if (outcome && !closing) {
        const timer = setTimeout(() => {
          timers.delete(id);
          waiting.push(id);
          pump();
        }, outcome.retryInMs);
        timer.unref();
        timers.set(id, timer);
        return;
      }
    } catch (error) {
      logger.warn('webhook job failed', { job_id: id, error });
    }
    jobs.delete(id);
  }

  return {
    async enqueue(payload) {
      const { delivery_id: id } = webhookJobPayloadSchema.parse(payload);
      if (closing || jobs.has(id)) return;
      jobs.add(id);
      waiting.push(id);
      pump();
    },
    async close() {
      closing = true;
      waiting.splice(0);
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
      await Promise.all(running);
    },
  };
}
