import { AppError, isDependencyUnavailable, withTimeout } from '@research/core';
import type { Logger } from '@research/observability';
import { RESEARCH_JOB_OPTIONS } from './bull-queue';
import {
  researchJobPayloadSchema,
  unavailableRetryDelayMs,
  type ResearchJobHandler,
  type ResearchJobPayload,
  type ResearchQueue,
} from './research-job';

export interface InProcessQueue extends ResearchQueue {
  /**
   * Graceful stop: takes no new job, drops queued ones, gives running jobs `graceMs` to end on their own,
   * then asks them to hand back (they stop at their next check) and waits for them. Every run left
   * unfinished stays in Postgres and is resumed from its checkpoint by the reconciler at the next start.
   */
  close(options?: { graceMs?: number }): Promise<void>;
  liveJobIds(ids: string[]): Promise<Set<string>>;
  /** Resolves once nothing is queued, waiting for a retry or running. */
  onIdle(): Promise<void>;
}

interface Entry {
  payload: ResearchJobPayload;
  attempt: number;
  /** Tries in a row that found the database unreachable (they spend no attempt). */
  outages?: number;
}

/**
 * The queue of `npm start` without REDIS_URL: jobs run in this process with bounded concurrency,
 * one job per research id at a time, with the same retry rule as the BullMQ queue.
 */
export function createInProcessQueue(params: {
  handler: ResearchJobHandler;
  concurrency: number;
  logger: Logger;
  maxAttempts?: number;
  retryDelayMs?: number;
  /** Called with the run's id once a job that ended `paused` is gone (plan review: requeueIfApproved). */
  onPaused?: (researchId: string) => void;
}): InProcessQueue {
  const { handler, logger } = params;
  const concurrency = Math.max(1, params.concurrency);
  const maxAttempts = params.maxAttempts ?? RESEARCH_JOB_OPTIONS.attempts;
  const retryDelayMs = params.retryDelayMs ?? RESEARCH_JOB_OPTIONS.backoff.delay;
  const waiting: Entry[] = [];
  const waitingIds = new Set<string>();
  const delayed = new Map<string, NodeJS.Timeout>();
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  const idleWaiters: Array<() => void> = [];
  let closing = false;

  function settleIdle(): void {
    if (waiting.length === 0 && delayed.size === 0 && running.size === 0) {
      for (const resolve of idleWaiters.splice(0)) resolve();
    }
  }

  function pump(): void {
    while (!closing && running.size < concurrency && waiting.length > 0) {
      const entry = waiting.shift()!;
      waitingIds.delete(entry.payload.research_id);
      start(entry);
    }
    settleIdle();
  }

  function start(entry: Entry): void {
    const id = entry.payload.research_id;
    const controller = new AbortController();
    const log = logger.child({ research_id: id, job_id: id, request_id: entry.payload.request_id ?? null });
    let paused = false;
    const done = (async () => {
      try {
        const outcome = await handler(entry.payload, {
          id,
          attempt: entry.attempt,
          maxAttempts,
          afterOutage: (entry.outages ?? 0) > 0,
          signal: controller.signal,
          logger: log,
        });
        // `busy`: another process (sharing this Postgres) works on the run; the reconciler re-enqueues
        // it if that process dies. `handed_back`: shutdown; the run resumes at the next start.
        if (outcome === 'busy') log.info('research run is held by another process; job dropped');
        paused = outcome === 'paused';
      } catch (error) {
        // The same rule as the BullMQ worker: an unreachable database costs no attempt.
        const unavailable = isDependencyUnavailable(error);
        if (!closing && (unavailable || entry.attempt < maxAttempts)) {
          const outages = unavailable ? (entry.outages ?? 0) + 1 : 0;
          const delay = unavailable ? unavailableRetryDelayMs(outages - 1) : retryDelayMs * 2 ** (entry.attempt - 1);
          log.warn('research job failed; retrying', { error, attempt: entry.attempt, delay_ms: delay });
          const next = { payload: entry.payload, attempt: unavailable ? entry.attempt : entry.attempt + 1, outages };
          const timer = setTimeout(() => {
            delayed.delete(id);
            push(next);
          }, delay);
          timer.unref();
          delayed.set(id, timer);
        } else {
          log.error('research job failed', { error, attempt: entry.attempt });
        }
      } finally {
        running.delete(id);
        pump();
        if (paused) params.onPaused?.(id);
      }
    })();
    running.set(id, { controller, done });
  }

  function push(entry: Entry): void {
    const id = entry.payload.research_id;
    if (closing || waitingIds.has(id) || running.has(id) || delayed.has(id)) return;
    waiting.push(entry);
    waitingIds.add(id);
    pump();
  }

  return {
    async enqueue(payload) {
      if (closing) throw new AppError('unavailable', 'The research queue is shutting down');
      push({ payload: researchJobPayloadSchema.parse(payload), attempt: 1 });
    },
    async ping() {
      return !closing;
    },
    async liveJobIds(ids) {
      return new Set(ids.filter((id) => waitingIds.has(id) || running.has(id) || delayed.has(id)));
    },
    onIdle() {
      return new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        settleIdle();
      });
    },
    async close(options) {
      closing = true;
      waiting.splice(0);
      waitingIds.clear();
      for (const timer of delayed.values()) clearTimeout(timer);
      delayed.clear();
      const all = () => Promise.all([...running.values()].map((r) => r.done));
      if (options?.graceMs && running.size > 0) {
        await withTimeout(all(), options.graceMs, 'running research jobs').catch(() => undefined);
      }
      for (const { controller } of running.values()) controller.abort('shutdown');
      await all();
      settleIdle();
    },
  };
}
