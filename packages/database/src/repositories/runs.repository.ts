import { sql } from 'kysely';
import { REVIEW_STATE, TERMINAL_STATES } from '@research/core';
import { preparedQuery, runPreparedQuery } from '../prepared';
import type { Db, NewRun, RunCheckpoint, RunRow } from '../schema';

export interface RunWithProtection extends RunRow {
  has_retention: boolean;
  is_deletion_protected: boolean;
}

export function insertRun(db: Db, run: NewRun) {
  return db.insertInto('research_runs').values(run).returningAll().executeTakeFirstOrThrow();
}

/** Any run, hidden or not (workers and administrators). */
export function findRunById(db: Db, id: string): Promise<RunRow | undefined> {
  return db.selectFrom('research_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A non-hidden run with its deletion-protection flag, in one primary-key lookup. */
export function findVisibleRun(db: Db, id: string): Promise<RunWithProtection | undefined> {
  return db
    .selectFrom('research_runs')
    .leftJoin('retention_records', 'retention_records.research_id', 'research_runs.id')
    .selectAll('research_runs')
    .select([
      sql<boolean>`retention_records.research_id is not null`.as('has_retention'),
      sql<boolean>`coalesce(retention_records.password_hash is not null, false)`.as('is_deletion_protected'),
    ])
    .where('research_runs.id', '=', id)
    .where('research_runs.is_hidden', '=', false)
    .executeTakeFirst();
}

export interface RunListItem {
  id: string;
  query: string;
  depth: string;
  state: string;
  created_at: Date;
  source_count: number;
  claim_count: number;
  is_deletion_protected: boolean;
  /** The run a follow-up started from, or null. */
  parent_id: string | null;
}

const visibleRunPage = preparedQuery(
  'visible_run_page',
  `select r.id, r.query, r.depth, r.state, r.created_at, r.source_count, r.claim_count, r.parent_id,
  coalesce(rr.password_hash is not null, false) as is_deletion_protected
from research_runs r
left join retention_records rr on rr.research_id = r.id
where not r.is_hidden
order by r.created_at desc, r.id desc
limit $1 offset $2`,
);

/** Non-hidden runs, newest first, one page (an index scan on research_runs_visible_created_idx). */
export function listVisibleRuns(db: Db, limit: number, offset: number): Promise<RunListItem[]> {
  return runPreparedQuery<RunListItem>(db, visibleRunPage, [limit, offset]);
}

const visibleRunTotal = preparedQuery('visible_run_total', 'select visible_runs from visible_run_counter');

/** The number of non-hidden runs, from the counter the database keeps (no count over the table). */
export async function countVisibleRuns(db: Db): Promise<number> {
  const [row] = await runPreparedQuery<{ visible_runs: number }>(db, visibleRunTotal, []);
  if (!row) throw new Error('visible_run_counter has no row (migrations not applied?)');
  return Number(row.visible_runs);
}

/** Runs in a running state (the active-runs gauge). */
export async function countRunningRuns(db: Db): Promise<number> {
  const row = await db
    .selectFrom('research_runs')
    .select(sql<number>`count(*)::int`.as('n'))
    .where('state', 'not in', TERMINAL_STATES)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Runs that have not ended and are not hidden: the reconciler makes sure each has a job. */
export function listUnfinishedRuns(
  db: Db,
  limit: number,
): Promise<Pick<RunRow, 'id' | 'state' | 'request_id' | 'enqueued_at' | 'created_at'>[]> {
  return db
    .selectFrom('research_runs')
    .select(['id', 'state', 'request_id', 'enqueued_at', 'created_at'])
    .where('state', 'not in', TERMINAL_STATES)
    .where('is_hidden', '=', false)
    .orderBy('created_at')
    .limit(limit)
    .execute();
}

/** Hidden runs that still claim to be running (hidden before the state write landed): they are cancelled. */
export function cancelHiddenRunningRuns(db: Db) {
  return db
    .updateTable('research_runs')
    .set({ state: 'cancelled', updated_at: sql<Date>`now()` })
    .where('is_hidden', '=', true)
    .where('state', 'not in', TERMINAL_STATES)
    .executeTakeFirst();
}

export function markRunEnqueued(db: Db, id: string) {
  return db
    .updateTable('research_runs')
    .set({ enqueued_at: sql<Date>`now()` })
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Hides the run and cancels it: the soft delete of SPEC 4.9. */
export function hideRun(db: Db, id: string) {
  return db
    .updateTable('research_runs')
    .set({ is_hidden: true, state: 'cancelled', updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .executeTakeFirst();
}

export function deleteRun(db: Db, id: string) {
  return db.deleteFrom('research_runs').where('id', '=', id).executeTakeFirst();
}

/**
 * Moves a live run to `state`. Conditional: never overwrites an end state and never touches a hidden run,
 * so a cancellation that lands between two steps always wins. Returns whether the move happened.
 * `started`: a worker picked the run up; it sets started_at once and counts an attempt unless `countAttempt`
 * is false. A run awaiting review of its plan is not moved.
 */
export async function transitionRun(
  db: Db,
  id: string,
  state: string,
  extra: { started?: boolean; countAttempt?: boolean } = {},
): Promise<boolean> {
  const result = await db
    .updateTable('research_runs')
    .set({
      state,
      updated_at: sql<Date>`now()`,
      ...(extra.started ? { started_at: sql<Date>`coalesce(started_at, now())` } : {}),
      ...(extra.started && extra.countAttempt !== false ? { attempts: sql<number>`attempts + 1` } : {}),
    })
    .where('id', '=', id)
    .where('is_hidden', '=', false)
    .where('state', 'not in', TERMINAL_STATES)
    // A run awaiting review of its plan moves on by its approval only (resumeReviewedRun).
    .where('state', '!=', REVIEW_STATE)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Commits a step's checkpoint if nobody else advanced the run meanwhile (optimistic: `expectedSeq` must be
 * the run's checkpoint_seq) and the run is still live. Runs inside the step's transaction, so records and
 * checkpoint land together.
 */
export async function advanceCheckpoint(
  db: Db,
  id: string,
  step: {
    expectedSeq: number;
    checkpoint: RunCheckpoint;
    plan?: Record<string, unknown>;
    usage?: Record<string, number>;
  },
): Promise<boolean> {
  const { expectedSeq, checkpoint, plan, usage } = step;
  const result = await db
    .updateTable('research_runs')
    .set({
      checkpoint: JSON.stringify(checkpoint),
      checkpoint_seq: expectedSeq + 1,
      updated_at: sql<Date>`now()`,
      ...(plan ? { plan: JSON.stringify(plan) } : {}),
      ...(usage ? { usage: JSON.stringify(usage) } : {}),
    })
    .where('id', '=', id)
    .where('checkpoint_seq', '=', expectedSeq)
    .where('is_hidden', '=', false)
    .where('state', 'not in', TERMINAL_STATES)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Sets the counters shown on status and list reads from the child tables, and returns them. */
export function refreshRunCounts(db: Db, id: string) {
  return db
    .updateTable('research_runs')
    .set({
      // Pages the run's searches found: a page two queries found is one (every result list is stored).
      search_count: sql<number>`(select count(distinct url) from search_results where run_id = ${id})`,
      source_count: sql<number>`(select count(*) from sources where run_id = ${id})`,
      claim_count: sql<number>`(select count(*) from claims where run_id = ${id})`,
    })
    .where('id', '=', id)
    .returning(['search_count', 'source_count', 'claim_count'])
    .executeTakeFirst();
}

/**
 * Ends a live run as completed, failed, or cancelled (a client stopped it); false when it had already ended
 * (e.g. cancelled). The end's progress events and the webhook it owes are written by triggers, with it.
 */
export async function finishRun(
  db: Db,
  id: string,
  outcome: { state: 'completed' | 'cancelled' } | { state: 'failed'; error: string; failedStep: string },
): Promise<boolean> {
  const metadata =
    outcome.state === 'failed'
      ? sql`metadata || ${JSON.stringify({ error: outcome.error, failed_step: outcome.failedStep })}::jsonb`
      : sql`metadata`;
  const result = await db
    .updateTable('research_runs')
    .set({
      state: outcome.state,
      updated_at: sql<Date>`now()`,
      finished_at: sql<Date>`now()`,
      metadata: metadata as never,
    })
    .where('id', '=', id)
    .where('state', 'not in', TERMINAL_STATES)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Hides and cancels the run only while it is still visible: of two concurrent soft deletes exactly one
 * succeeds (and writes the audit record). Returns whether this call hid it.
 */
export async function hideVisibleRun(db: Db, id: string): Promise<boolean> {
  const result = await db
    .updateTable('research_runs')
    .set({ is_hidden: true, state: 'cancelled', updated_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('is_hidden', '=', false)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Gives back the attempt a worker counted when it handed the run back on shutdown (not a crash). */
export function releaseRunAttempt(db: Db, id: string) {
  return db
    .updateTable('research_runs')
    .set({ attempts: sql<number>`greatest(attempts - 1, 0)` })
    .where('id', '=', id)
    .where('state', 'not in', TERMINAL_STATES)
    .executeTakeFirst();
}
