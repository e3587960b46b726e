import { createAddressPolicy, createGuardedAgents, systemResolver } from '@research/crawler';
import { deliverWebhook, type WebhookDeliveryDeps } from '@research/pipeline';
import {
  createInProcessWebhookQueue,
  startBullWebhookQueue,
  startWebhookDispatcher,
  type WebhookJobHandler,
  type WebhookQueue,
} from '@research/queue';
import type { Services } from './services';

// Attempts at once per process: receivers are slow at worst for WEBHOOK_TIMEOUT_MS each.
const WEBHOOK_CONCURRENCY = 4;

/** The webhook half of a worker: its queue (BullMQ with Redis, in-process without) and the dispatcher. */
export interface WebhookWorker {
  stop(): Promise<void>;
}

/**
 * Starts delivering the webhooks runs owe, from this process: the dispatcher enqueues due deliveries from
 * their rows, the queue's jobs attempt them. Without WEBHOOK_SECRET nothing starts (no run may name a
 * callback_url then; rows left from a time it was set wait until it is again).
 */
export function startWebhookWorker(services: Services, mode: 'redis' | 'in-process'): WebhookWorker | undefined {
  const { config, db, logger } = services;
  const secret = config.webhooks.secret;
  if (!secret) {
    logger.info('webhooks off: WEBHOOK_SECRET is not set');
    return undefined;
  }
  const guard = {
    resolver: systemResolver,
    policy: createAddressPolicy({ allowPrivateNetworks: config.crawler.allowPrivateNetworks }),
  };
  const agents = createGuardedAgents(guard);
  const deps: WebhookDeliveryDeps = {
    db,
    secret,
    timeoutMs: config.webhooks.timeoutMs,
    retryBaseMs: config.webhooks.retryBaseMs,
    guard,
    agents,
  };
  const handler: WebhookJobHandler = (payload, log) => deliverWebhook(deps, payload.delivery_id, log);
  const log = logger.child({ subsystem: 'webhooks' });
  const queue: WebhookQueue =
    mode === 'redis' && config.redisUrl
      ? startBullWebhookQueue({
          redisUrl: config.redisUrl,
          prefix: config.redisPrefix,
          concurrency: WEBHOOK_CONCURRENCY,
          locks: { lockDurationMs: config.workerLockMs, stalledIntervalMs: config.workerStalledIntervalMs },
          handler,
          logger: log,
        })
      : createInProcessWebhookQueue({ concurrency: WEBHOOK_CONCURRENCY, handler, logger: log });
  const dispatcher = startWebhookDispatcher({ db, queue, logger: log });
  return {
    async stop() {
      await dispatcher.stop();
      await queue.close();
      agents.destroy();
    },
  };
}
