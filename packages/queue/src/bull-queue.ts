import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '@research/observability';
import { settleConnectionStart } from './connection-start';
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
  let everReady = false;
  connection.on('ready', () => {
    everReady = true;
  });

  /** Ready now; or, right after start only, ready within the connect timeout. Never waits while Redis is down. */
  async function connected(): Promise<boolean> {
    if (connection.status === 'ready') return true;
    if (everReady || connection.status === 'end') return false;
    return new Promise<boolean>((resolve) => {
      const done = (value: boolean) => {
        clearTimeout(timer);
        connection.off('ready', onReady);
        resolve(value);
      };
      const onReady = () => done(true);
      const timer = setTimeout(() => done(false), 2000);
      connection.once('ready', onReady);
    });
  }

  return {
    async enqueue(payload) {
      const data = researchJobPayloadSchema.parse(payload);
      // BullMQ waits for a connection that may never come; a producer must fail fast instead.
      if (!(await connected())) throw new Error(`Redis is not connected (${connection.status})`);
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
      if (!(await connected())) throw new Error(`Redis is not connected (${connection.status})`);
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
      // A start still under way (Redis down since this process began) ends here, its failure reported to
      // the queue's listener, before close() removes that listener.
      if (!(await settleConnectionStart(queue.waitUntilReady()))) {
        connection.disconnect();
        await settleConnectionStart(queue.waitUntilReady());
      }
      await queue.close().catch(() => undefined);
      connection.disconnect();
    },
  };
}
