import { sql } from 'kysely';
import { REVIEW_STATE, TERMINAL_STATES } from '@research/core';
import type { Db } from '../schema';

/**
 * Stops a live run for the review of its plan (state `awaiting_review`, the wait's start recorded). Called in
 * the transaction that commits the plan, so a run never searches a plan that was meant to wait.
 */
export async function pauseRunForReview(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('research_runs')
    .set({ state: REVIEW_STATE, review_requested_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('is_hidden', '=', false)
    .where('state', 'not in', TERMINAL_STATES)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Moves a run awaiting review on to `state` (its next step's). Its started_at moves forward by the time the
 * plan waited, so the wait is not counted against the run's duration budget. False unless it was awaiting.
 */
export async function resumeReviewedRun(db: Db, id: string, state: string): Promise<boolean> {
  const result = await db
    .updateTable('research_runs')
    .set({
      state,
      updated_at: sql<Date>`now()`,
      started_at: sql<Date>`started_at + (now() - coalesce(review_requested_at, now()))`,
    })
    .where('id', '=', id)
    .where('is_hidden', '=', false)
    .where('state', '=', REVIEW_STATE)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Replaces the plan of a run awaiting review; false unless it was awaiting. */
export async function replaceReviewedPlan(db: Db, id: string, plan: Record<string, unknown>): Promise<boolean> {
  const result = await db
    .updateTable('research_runs')
    .set({ plan: JSON.stringify(plan), updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('is_hidden', '=', false)
    .where('state', '=', REVIEW_STATE)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Visible runs whose plan has waited for review since before `cutoff`, oldest wait first, at most `limit`. */
export async function listOverdueReviews(db: Db, cutoff: Date, limit: number): Promise<string[]> {
  const rows = await db
    .selectFrom('research_runs')
    .select('id')
    .where('state', '=', REVIEW_STATE)
    .where('review_requested_at', '<', cutoff)
    .where('is_hidden', '=', false)
    .orderBy('review_requested_at')
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/**
 * Ends a run whose review is overdue as `cancelled`, with `error` saying why (its status shows it). False
 * when it no longer awaits review or its wait began at or after `cutoff` (approved, or paused again).
 */
export async function expireReviewedRun(db: Db, id: string, at: { cutoff: Date; error: string }): Promise<boolean> {
  const result = await db
    .updateTable('research_runs')
    .set({
      state: 'cancelled',
      updated_at: sql<Date>`now()`,
      finished_at: sql<Date>`now()`,
      metadata: sql`metadata || ${JSON.stringify({ error: at.error })}::jsonb` as never,
    })
    .where('id', '=', id)
    .where('state', '=', REVIEW_STATE)
    .where('review_requested_at', '<', at.cutoff)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
