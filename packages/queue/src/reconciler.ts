import { startPeriodicPass, type PeriodicPass } from '@research/core';
import { cancelHiddenRunningRuns, listUnfinishedRunsAfter, markRunEnqueued, type Database } from '@research/database';
import type { Logger } from '@research/observability';
import type { ResearchQueue } from './research-job';

export interface ReconcileResult {
  /** Hidden runs that still claimed to run and were set to cancelled. */
  cancelled: number;
  /** Unfinished runs looked at. */
  unfinished: number;
  /** Runs that had no live job and were enqueued again. */
  enqueued: number;
  /** False when the queue or the database could not be reached (the tick is retried on the next one). */
  ok: boolean;
}

/** The reconciler's timer: runOnce() is one pass, which never throws. */
export type Reconciler = PeriodicPass<ReconcileResult>;

/**
 * Makes the queue agree with Postgres, which is the truth: every unfinished, visible run has a live job.
 * Catches runs committed but never enqueued (crash, Redis down) and jobs that vanished (Redis restarted
 * empty). Enqueueing is idempotent (the job id is the research id), so several reconcilers may run.
 * A job that is active but whose worker died is left to BullMQ's stalled check, which moves it back.
 */
export function startReconciler(params: {
  db: Database;
  queue: ResearchQueue;
  intervalMs: number;
  logger: Logger;
  batchSize?: number;
  /** Run the first pass at once (default true). */
  immediate?: boolean;
}): Reconciler {
  const { db, queue, logger } = params;
  const batchSize = params.batchSize ?? 200;
  async function pass(stopping: () => boolean): Promise<ReconcileResult> {
    const result: ReconcileResult = { cancelled: 0, unfinished: 0, enqueued: 0, ok: true };
    try {
      const hidden = await cancelHiddenRunningRuns(db);
      result.cancelled = Number(hidden.numUpdatedRows ?? 0);
      let cursor: { createdAt: Date; id: string } | null = null;
      for (;;) {
        const runs = await listUnfinishedRunsAfter(db, cursor, batchSize);
        if (runs.length === 0) break;
        result.unfinished += runs.length;
        const last = runs[runs.length - 1]!;
        cursor = { createdAt: last.created_at, id: last.id };
        const live = queue.liveJobIds ? await queue.liveJobIds(runs.map((r) => r.id)) : new Set<string>();
        for (const run of runs) {
          if (stopping()) return result;
          if (live.has(run.id)) continue;
          await queue.enqueue({ research_id: run.id, ...(run.request_id ? { request_id: run.request_id } : {}) });
          await markRunEnqueued(db, run.id);
          result.enqueued++;
          logger.info('run had no live job; enqueued', {
            research_id: run.id,
            job_id: run.id,
            request_id: run.request_id,
            state: run.state,
          });
        }
        if (runs.length < batchSize) break;
      }
      if (result.cancelled > 0)
        logger.info('cancelled hidden runs that were still running', { count: result.cancelled });
    } catch (error) {
      // Redis or Postgres down: the runs stay in Postgres and the next pass tries again.
      result.ok = false;
      logger.warn('reconcile pass failed; retrying on the next tick', { error });
    }
    return result;
  }

  return startPeriodicPass(pass, { intervalMs: params.intervalMs, immediate: params.immediate !== false });
}
