import { DelayedError, UnrecoverableError, WaitingError, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { z } from 'zod';
import type { Logger } from '@research/observability';
import { RESEARCH_JOB_OPTIONS } from './bull-queue';
import { settleConnectionStart } from './connection-start';
import { TimeoutError, isDependencyUnavailable, withTimeout } from '@research/core';
import {
  RESEARCH_QUEUE_NAME,
  researchJobPayloadSchema,
  unavailableRetryDelayMs,
  type ResearchJobHandler,
  type ResearchJobOutcome,
} from './research-job';

export interface ResearchWorker {
  /**
   * Graceful stop: takes no new job, asks running handlers to hand their runs back (they stop at once;
   * the next worker resumes from the last checkpoint), puts those jobs back in the queue and closes.
   */
  close(): Promise<void>;
}

export interface ResearchWorkerOptions {
  redisUrl: string;
  prefix: string;
  concurrency: number;
  /** How long a job's lock lives without renewal: a dead worker's job is taken over after this. */
  lockDurationMs: number;
  /** How often stalled jobs (lock expired, worker gone) are moved back to waiting. */
  stalledIntervalMs: number;
  handler: ResearchJobHandler;
  logger: Logger;
  /** Delay before retrying a job whose run a live process already works on (default: lockDurationMs). */
  busyRetryDelayMs?: number;
  /** Upper bound on close(); running jobs that do not stop by then are left to the stalled check. */
  closeTimeoutMs?: number;
  /** Called with the run's id once a job that ended `paused` is completed (plan review: requeueIfApproved). */
  onPaused?: (researchId: string) => void;
}

// Where a job's data records the outage its last pick-up met (beside the payload, which ignores it).
const OUTAGE_FIELD = 'outage';

/** An outage a job met: at which pick-up (BullMQ's attemptsStarted), and how many pick-ups in a row. */
interface JobOutage {
  pickup: number;
  count: number;
}

const jobOutageSchema = z.object({ pickup: z.number().int(), count: z.number().int().min(1) });

/**
 * The outage the pick-up just before this one met, if any. BullMQ counts every move to active in
 * attemptsStarted (outage delays, hand-backs, busy delays, stalls and retries alike): an outage recorded at
 * the previous pick-up number is this job's own; one from earlier was followed by another pick-up (a stall
 * of a worker killed right after an outage among them), which ended that outage's run of pick-ups.
 */
function outageBefore(job: Job): JobOutage | undefined {
  const parsed = jobOutageSchema.safeParse((job.data as Record<string, unknown> | undefined)?.[OUTAGE_FIELD]);
  return parsed.success && parsed.data.pickup === job.attemptsStarted - 1 ? parsed.data : undefined;
}

/** A job that ended well: `paused` is its completed job's return value, which the `completed` listener reads. */
function finished(outcome: ResearchJobOutcome | void, log: Logger): 'paused' | undefined {
  log.info('research job finished');
  return outcome === 'paused' ? outcome : undefined;
}

/** Starts a BullMQ worker that executes research jobs with `handler`. */
export function startResearchWorker(options: ResearchWorkerOptions): ResearchWorker {
  const { handler, logger } = options;
  const busyRetryDelayMs = options.busyRetryDelayMs ?? options.lockDurationMs;
  const closeTimeoutMs = options.closeTimeoutMs ?? 20_000;
  // BullMQ workers must wait for Redis forever rather than fail a command (BullMQ: going to production).
  const connection = new Redis(options.redisUrl, { maxRetriesPerRequest: null });
  connection.on('error', (error) => logger.debug('worker redis error', { error }));
  const controllers = new Map<string, AbortController>();
  let closing = false;

  const processJob = async (job: Job, token?: string): Promise<'paused' | undefined> => {
    const jobId = job.id ?? '';
    const raw = (job.data ?? {}) as Record<string, unknown>;
    const log = logger.child({
      job_id: jobId,
      research_id: typeof raw.research_id === 'string' ? raw.research_id : null,
      request_id: typeof raw.request_id === 'string' ? raw.request_id : null,
    });
    // The producer validated the payload; the worker validates again before any work (STYLE: jobs).
    const parsed = researchJobPayloadSchema.safeParse(job.data);
    if (!parsed.success) {
      log.error('research job has an invalid payload', {
        issues: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`),
      });
      throw new UnrecoverableError('Invalid research job payload');
    }
    const controller = new AbortController();
    controllers.set(jobId, controller);
    if (closing) controller.abort('shutdown');
    try {
      const attempt = job.attemptsMade + 1;
      const outage = outageBefore(job);
      log.info('research job started', { attempt, ...(outage ? { after_outage: outage.count } : {}) });
      let outcome: Awaited<ReturnType<ResearchJobHandler>>;
      try {
        outcome = await handler(parsed.data, {
          id: jobId,
          attempt,
          maxAttempts: job.opts.attempts ?? RESEARCH_JOB_OPTIONS.attempts,
          afterOutage: outage !== undefined,
          signal: controller.signal,
          logger: log,
        });
      } catch (error) {
        if (!isDependencyUnavailable(error)) throw error;
        // The database (or Redis) is down: nothing is wrong with the job. It waits and tries again without
        // spending an attempt, however long the outage lasts; the job remembers it for its next pick-up.
        const failures = outage?.count ?? 0;
        const delay = unavailableRetryDelayMs(failures);
        const met: JobOutage = { pickup: job.attemptsStarted, count: failures + 1 };
        await job.updateData({ ...(job.data as object), [OUTAGE_FIELD]: met });
        await job.moveToDelayed(Date.now() + delay, token);
        log.warn('research job paused: a dependency is unreachable', { error, delay_ms: delay });
        throw new DelayedError();
      }
      if (outcome === 'handed_back') {
        // Back to waiting at once, without spending an attempt: another worker resumes the run.
        await job.moveToWait(token);
        log.info('research job handed back');
        throw new WaitingError();
      }
      if (outcome === 'busy') {
        await job.moveToDelayed(Date.now() + busyRetryDelayMs, token);
        log.info('research run is held by a live worker; job delayed', { delay_ms: busyRetryDelayMs });
        throw new DelayedError();
      }
      return finished(outcome, log);
    } finally {
      controllers.delete(jobId);
    }
  };

  const worker = new Worker(RESEARCH_QUEUE_NAME, processJob, {
    connection,
    prefix: options.prefix,
    concurrency: options.concurrency,
    lockDuration: options.lockDurationMs,
    stalledInterval: options.stalledIntervalMs,
    // A job whose worker died is retried from its checkpoint; a second stall fails the job, and the
    // reconciler re-enqueues the run while Postgres's attempt count stays under the limit.
    maxStalledCount: 1,
  });
  // Without a listener an 'error' event would crash the process (e.g. lock renewal while Redis is down).
  worker.on('error', (error) => logger.warn('research worker error', { error }));
  worker.on('failed', (job, error) => {
    logger.warn('research job failed', {
      job_id: job?.id ?? null,
      research_id: (job?.data as { research_id?: string } | undefined)?.research_id ?? null,
      request_id: (job?.data as { request_id?: string } | undefined)?.request_id ?? null,
      attempts_made: job?.attemptsMade ?? null,
      error,
    });
  });
  worker.on('completed', (job, result) => {
    if (result === 'paused') options.onPaused?.((job.data as { research_id: string }).research_id);
  });
  worker.on('stalled', (jobId) =>
    logger.warn('research job stalled; moved back to waiting', { job_id: jobId, research_id: jobId }),
  );

  let closed: Promise<void> | undefined;
  return {
    close() {
      if (closed) return closed;
      closing = true;
      closed = (async () => {
        for (const controller of controllers.values()) controller.abort('shutdown');
        // The worker's connections may still be starting (a SIGTERM right after start): see settleConnectionStart.
        // When Redis has been down since this process began, the start never settles; close goes on after the wait.
        await settleConnectionStart(worker.waitUntilReady());
        try {
          await withTimeout(worker.close(), closeTimeoutMs, 'closing the research worker');
        } catch (error) {
          if (!(error instanceof TimeoutError)) throw error;
          // The pending close is abandoned: dropping the connection leaves the unfinished jobs to the
          // stalled check of the other workers, and their runs to the checkpoint.
          logger.warn('research worker did not stop in time; leaving its jobs to the stalled check');
        }
        connection.disconnect();
      })();
      return closed;
    },
  };
}
