import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '@research/observability';
import {
  RESEARCH_JOB_NAME,
  RESEARCH_QUEUE_NAME,
  researchJobPayloadSchema,
  type ResearchJobPayload,
  type ResearchQueue,
} from './research-job';

const LIVE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'paused'] as const;

/** Options every research job is added with. */
export const RESEARCH_JOB_OPTIONS = {
  // Finished jobs are removed so the reconciler can enqueue the same research id again after a crash;
  // the run's truth lives in Postgres, not in the queue.
  removeOnComplete: true,
  removeOnFail: true,
  // Retries are for crashes and lost locks; the orchestrator resumes from the last checkpoint.
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
} as const;

/**
 * The API's producer: fails fast when Redis is down (no offline queue, one retry per command), so
 * `POST /v1/research` still answers and the reconciler enqueues the run later.
 */
export function createBullResearchQueue(params: { redisUrl: string; prefix: string; logger: Logger }): ResearchQueue {
  const connection = new Redis(params.redisUrl, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 2000,
    retryStrategy: (times) => Math.min(times * 200, 2000),
  });
  connection.on('error', (error) => params.logger.debug('queue redis error', { error }));
  const queue = new Queue<ResearchJobPayload>(RESEARCH_QUEUE_NAME, { connection, prefix: params.prefix });
  queue.on('error', (error) => params.logger.debug('queue error', { error }));

  return {
    async enqueue(payload) {
      const data = researchJobPayloadSchema.parse(payload);
      await queue.add(RESEARCH_JOB_NAME, data, { ...RESEARCH_JOB_OPTIONS, jobId: data.research_id });
    },
    async ping() {
      try {
        return (await connection.ping()) === 'PONG';
      } catch {
        return false;
      }
    },
    async liveJobIds(ids) {
      const live = new Set<string>();
      await Promise.all(
        ids.map(async (id) => {
          const state = await queue.getJobState(id);
          if ((LIVE_STATES as readonly string[]).includes(state)) live.add(id);
        }),
      );
      return live;
    },
    async close() {
      await queue.close().catch(() => undefined);
      connection.disconnect();
    },
  };
}
