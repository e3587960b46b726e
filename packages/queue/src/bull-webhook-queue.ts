import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '@research/observability';
import { settleConnectionStart } from './connection-start';
import {
  WEBHOOK_JOB_NAME,
  WEBHOOK_QUEUE_NAME,
  webhookJobPayloadSchema,
  type WebhookJobHandler,
  type WebhookJobPayload,
  type WebhookQueue,
} from './webhook-job';

const WEBHOOK_JOB_OPTIONS = {
  // The delivery's truth is its row: a finished job goes, and the dispatcher can enqueue the id again.
  removeOnComplete: true,
  removeOnFail: true,
  // Waits between attempts are the handler's (moveToDelayed); a thrown error drops the job for the dispatcher.
  attempts: 1,
} as const;

/**
 * The webhook queue of a Redis deployment: a BullMQ queue of its own beside the research queue, and its
 * worker in this process. A delayed attempt lives in Redis, so a worker restart loses no delivery.
 */
export function startBullWebhookQueue(params: {
  redisUrl: string;
  prefix: string;
  concurrency: number;
  /** The research worker's lock and stalled check: a dead worker's attempt is taken over as soon as a run is. */
  locks: { lockDurationMs: number; stalledIntervalMs: number };
  handler: WebhookJobHandler;
  logger: Logger;
}): WebhookQueue {
  const { logger, handler } = params;
  const producer = new Redis(params.redisUrl, { maxRetriesPerRequest: 1, connectTimeout: 2000 });
  producer.on('error', (error) => logger.debug('webhook queue redis error', { error }));
  const queue = new Queue<WebhookJobPayload>(WEBHOOK_QUEUE_NAME, { connection: producer, prefix: params.prefix });
  queue.on('error', (error) => logger.debug('webhook queue error', { error }));
  const connection = new Redis(params.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', (error) => logger.debug('webhook worker redis error', { error }));

  const processJob = async (job: Job, token?: string): Promise<void> => {
    const payload = webhookJobPayloadSchema.parse(job.data);
    const outcome = await handler(payload, logger.child({ job_id: job.id ?? null }));
    if (!outcome) return;
    await job.moveToDelayed(Date.now() + outcome.retryInMs, token);
    throw new DelayedError();
  };
  const worker = new Worker(WEBHOOK_QUEUE_NAME, processJob, {
    connection,
    prefix: params.prefix,
    concurrency: params.concurrency,
    lockDuration: params.locks.lockDurationMs,
    stalledInterval: params.locks.stalledIntervalMs,
  });
  worker.on('error', (error) => logger.warn('webhook worker error', { error }));
  worker.on('failed', (job, error) => logger.warn('webhook job failed', { job_id: job?.id ?? null, error }));

  let closed: Promise<void> | undefined;
  return {
    async enqueue(payload) {
      const data = webhookJobPayloadSchema.parse(payload);
      await queue.add(WEBHOOK_JOB_NAME, data, { ...WEBHOOK_JOB_OPTIONS, jobId: data.delivery_id });
    },
    close() {
      closed ??= (async () => {
        await settleConnectionStart(worker.waitUntilReady());
        await worker.close().catch(() => undefined);
        await settleConnectionStart(queue.waitUntilReady());
        await queue.close().catch(() => undefined);
        connection.disconnect();
        producer.disconnect();
      })();
      return closed;
    },
  };
}
