import fs from 'node:fs';
import { withTimeout, type AppConfig } from '@research/core';
import { connectRunLockPool, type DatabaseHandle } from '@research/database';
import type { Logger } from '@research/observability';
import { createResearchRunner, type ResearchServices } from '@research/pipeline';
import { createProcessResearchServices, type ProcessResearchServices } from './research-services';
import {
  createBullResearchQueue,
  createInProcessQueue,
  requeueIfApproved,
  startReconciler,
  startResearchWorker,
  type InProcessQueue,
  type Reconciler,
} from '@research/queue';
import { openServices, type Services } from './services';
import { startReviewSweeper } from './review-sweeper';
import { startWebhookWorker } from './webhooks';

export interface WorkerRuntime {
  readonly services: Services;
  readonly logger: Logger;
  /** Graceful and idempotent: reconciler, then worker (hands its runs back), metrics, connections. */
  stop(): Promise<void>;
}

/** Closes a pool, but never waits long for it: a lock still held by a stuck job dies with the process. */
async function closeWithin(handle: DatabaseHandle | undefined, ms: number): Promise<void> {
  if (!handle) return;
  await withTimeout(handle.close(), ms, 'closing the run lock pool').catch(() => undefined);
}

/** Run locks hold one connection per running job: a pool of their own, above the worker's concurrency. */
function openLockPool(config: AppConfig, role: string): DatabaseHandle | undefined {
  return config.databaseUrl
    ? connectRunLockPool(config.databaseUrl, {
        max: config.workerConcurrency + 2,
        applicationName: `research-${role}-run-locks`,
      })
    : undefined;
}

/** A process's research runner; `close` releases what it opened (its run lock pool, its research services). */
interface ProcessRunner {
  runner: ReturnType<typeof createResearchRunner>;
  /** The research services the runner's steps use. */
  research: ResearchServices;
  close(): Promise<void>;
}

/**
 * The runner of a worker: the given research services or the process's own, run locks on a pool of their own when
 * several processes may share the database (a Postgres server), and the fleet's metric totals when there
 * is a fleet.
 */
function openProcessRunner(
  services: Services,
  lockRole: string,
  research: ResearchServices | undefined,
): ProcessRunner {
  const locks = services.databaseKind === 'postgres' ? openLockPool(services.config, lockRole) : undefined;
  let owned: ProcessResearchServices | undefined;
  const steps = research ?? (owned = createProcessResearchServices(services)).services;
  const runner = createResearchRunner({
    db: services.db,
    services: steps,
    metrics: services.metrics,
    logger: services.logger,
    ...(locks ? { lockDb: locks.db } : {}),
    // Counted in the fleet's totals before a step's commit makes it visible (exact /metrics on every API).
    ...(services.fleet ? { publishMetrics: services.fleet.publish } : {}),
  });
  return {
    runner,
    research: steps,
    async close() {
      await closeWithin(locks, 2000);
      await owned?.close();
    },
  };
}

const HEARTBEAT_INTERVAL_MS = 5_000;

/** Touches `file` while the event loop turns: a container healthcheck reads its age (Dockerfile.worker). */
function startHeartbeat(file: string): NodeJS.Timeout {
  const beat = () => fs.writeFile(file, String(Date.now()), () => undefined);
  beat();
  const timer = setInterval(beat, HEARTBEAT_INTERVAL_MS);
  timer.unref();
  return timer;
}

/** A BullMQ worker, its reconciler and its metrics publisher over already opened services. */
export interface QueueWorker {
  /**
   * Graceful and idempotent: reconciler, then worker (hands its runs back), run locks. The process's last
   * counts join the fleet's totals when its services close (Services.close publishes them).
   */
  stop(): Promise<void>;
}

/** Starts executing research jobs from Redis in this process (start:worker, and `npm start` with REDIS_URL). */
export function startQueueWorker(services: Services, options: { research?: ResearchServices } = {}): QueueWorker {
  const { config, logger, db } = services;
  if (!config.redisUrl) throw new Error('A queue worker needs REDIS_URL');
  const { runner, research, close: closeRunner } = openProcessRunner(services, services.role, options.research);
  // Workers reconcile too: the pass is idempotent, and the fleet keeps healing while the API is down.
  const producer = createBullResearchQueue({ redisUrl: config.redisUrl, prefix: config.redisPrefix, logger });
  const worker = startResearchWorker({
    redisUrl: config.redisUrl,
    prefix: config.redisPrefix,
    concurrency: config.workerConcurrency,
    lockDurationMs: config.workerLockMs,
    stalledIntervalMs: config.workerStalledIntervalMs,
    handler: runner,
    logger,
    // Leave room inside the process's shutdown deadline for the steps after the worker.
    closeTimeoutMs: Math.max(1000, Math.floor(config.shutdownTimeoutMs * 0.6)),
    onPaused: (id) => void requeueIfApproved({ db, queue: producer, logger }, id),
  });
  const reconciler = startReconciler({ db, queue: producer, intervalMs: config.reconcileIntervalMs, logger });
  const reviews = startReviewSweeper(services, research);
  const webhooks = startWebhookWorker(services, 'redis');
  const heartbeat = config.workerHeartbeatFile ? startHeartbeat(config.workerHeartbeatFile) : undefined;
  logger.info('worker started', {
    instance_id: services.instanceId,
    concurrency: config.workerConcurrency,
    prefix: config.redisPrefix,
  });

  let stopped: Promise<void> | undefined;
  return {
    stop() {
      stopped ??= (async () => {
        if (heartbeat) clearInterval(heartbeat);
        await reconciler.stop();
        await reviews.stop();
        // A webhook attempt in flight ends within WEBHOOK_TIMEOUT_MS, while the research worker hands its runs back.
        await Promise.all([webhooks?.stop(), worker.close()]);
        await producer.close();
        await closeRunner();
      })();
      return stopped;
    },
  };
}

/** `npm run start:worker`: executes research jobs from Redis. Needs DATABASE_URL and REDIS_URL. */
export async function startWorkerRuntime(
  config: AppConfig,
  options: { research?: ResearchServices } = {},
): Promise<WorkerRuntime> {
  const missing = [!config.databaseUrl && 'DATABASE_URL', !config.redisUrl && 'REDIS_URL'].filter(Boolean);
  if (missing.length > 0) {
    throw new Error(
      `start:worker needs ${missing.join(' and ')}: workers share Postgres and a Redis queue with the API ` +
        '(use `npm start` for the all-in-one mode that needs neither).',
    );
  }
  const services = await openServices(config, 'worker');
  const worker = startQueueWorker(services, options);
  let stopped: Promise<void> | undefined;
  return {
    services,
    logger: services.logger,
    stop() {
      stopped ??= (async () => {
        await worker.stop();
        await services.close();
        services.logger.info('worker stopped', { instance_id: services.instanceId });
      })();
      return stopped;
    },
  };
}

export interface InProcessWorker {
  /** The queue to hand to the HTTP context (AppContext.queue). */
  readonly queue: InProcessQueue;
  readonly reconciler: Reconciler;
  /** Stops the reconciler, hands running jobs back (they resume at the next start), closes the lock pool. */
  stop(): Promise<void>;
}

/**
 * The worker half of `npm start` without REDIS_URL: research jobs run in this process on an in-process
 * queue, and a reconciler picks up every unfinished run (also those left by the previous start).
 */
export function startInProcessWorker(
  services: Services,
  options: { research?: ResearchServices } = {},
): InProcessWorker {
  const { config, db, logger } = services;
  // Embedded PGlite is one process by construction; with a Postgres server, several all-in-one
  // processes may share the database, and run locks keep each run on one of them.
  const { runner, research, close: closeRunner } = openProcessRunner(services, 'all', options.research);
  const queue: InProcessQueue = createInProcessQueue({
    handler: runner,
    concurrency: config.workerConcurrency,
    logger,
    onPaused: (id) => void requeueIfApproved({ db, queue, logger }, id),
  });
  const reconciler = startReconciler({ db, queue, intervalMs: config.reconcileIntervalMs, logger });
  const reviews = startReviewSweeper(services, research);
  const webhooks = startWebhookWorker(services, 'in-process');
  let stopped: Promise<void> | undefined;
  return {
    queue,
    reconciler,
    stop() {
      stopped ??= (async () => {
        await reconciler.stop();
        await reviews.stop();
        await webhooks?.stop();
        await queue.close();
        await closeRunner();
      })();
      return stopped;
    },
  };
}
