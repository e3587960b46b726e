import {
  appendRunEvents,
  expireReviewedRun,
  findRunById,
  findRunForEdit,
  listOverdueReviews,
  type Database,
} from '@research/database';
import type { Logger, Metrics } from '@research/observability';
import { awaitsReview, reviewEvent } from './plan-review';
import { readSnapshot } from './step-commit';
import { writeReport } from './step-records';
import type { ResearchServices } from './steps';
import { stepModule } from './steps/index';
import { stopReport } from './stop-report';

/** The `error` of a run whose plan waited too long. */
export function reviewExpired(timeoutSeconds: number): string {
  return `The plan waited for review longer than ${timeoutSeconds} s (PLAN_REVIEW_TIMEOUT_SECONDS); the run was cancelled.`;
}

export interface ReviewExpiry {
  db: Database;
  services: ResearchServices;
  logger: Logger;
  metrics: Metrics;
  timeoutSeconds: number;
  /** Milliseconds since the epoch (tests move time). */
  now?: () => number;
  /** Runs expired per call, at most (the next call takes the rest). */
  limit?: number;
}

/**
 * Ends every run whose plan has waited for review longer than `timeoutSeconds`: cancelled, with the stop
 * report a cancel writes (it stopped before searching), a `review` event `expired` and `error` saying why.
 * Returns how many it ended.
 */
export async function expireOverdueReviews(x: ReviewExpiry): Promise<number> {
  const cutoff = new Date((x.now ?? Date.now)() - x.timeoutSeconds * 1000);
  const error = reviewExpired(x.timeoutSeconds);
  let expired = 0;
  for (const id of await listOverdueReviews(x.db, cutoff, x.limit ?? 100)) {
    const run = await findRunById(x.db, id);
    if (!run || !awaitsReview(run)) continue;
    const snapshot = await readSnapshot(x.db, run, stepModule('synthesize').reads);
    const outside = {
      services: x.services,
      logger: x.logger,
      metrics: x.metrics,
      signal: new AbortController().signal,
    };
    const stop = await stopReport(run, snapshot, outside);
    const ended = await x.db.transaction().execute(async (trx) => {
      // The run's row lock: an approval or a cancel of the same run waits for this one, or came first.
      const locked = await findRunForEdit(trx, id, { lock: true });
      if (!locked || locked.is_hidden || !awaitsReview(locked)) return false;
      await writeReport(trx, id, stop.record);
      await appendRunEvents(trx, id, [reviewEvent('expired', { timeout_seconds: x.timeoutSeconds }), ...stop.events]);
      return expireReviewedRun(trx, id, { cutoff, error });
    });
    if (ended) {
      expired++;
      x.logger.info('research run cancelled: its plan waited too long for review', { research_id: id });
    }
  }
  return expired;
}
