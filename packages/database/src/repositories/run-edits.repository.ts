import { sql } from 'kysely';
import type { Db, SourceRow } from '../schema';

/** What a write to a finished run checks, read under the run's row lock. */
export interface LockedRun {
  id: string;
  state: string;
  is_hidden: boolean;
  /** Bumped by every committed step: a changed value means the pipeline moved on. */
  checkpoint_seq: number;
  /** The retention record's owner when there is one, else the run's. */
  manager_user_id: string | null;
}

/**
 * Reads what an edit of a run checks (state, hidden, manager). With `lock` (inside a transaction) the
 * run's row stays locked until commit; the pipeline's checkpoint commit takes the same lock, so an edit
 * and a step never interleave.
 */
export function findRunForEdit(db: Db, id: string, options: { lock?: boolean } = {}): Promise<LockedRun | undefined> {
  const query = db
    .selectFrom('research_runs')
    .leftJoin('retention_records', 'retention_records.research_id', 'research_runs.id')
    .select([
      'research_runs.id',
      'research_runs.state',
      'research_runs.is_hidden',
      'research_runs.checkpoint_seq',
      sql<
        string | null
      >`case when retention_records.research_id is not null then retention_records.owner_user_id else research_runs.owner_user_id end`.as(
        'manager_user_id',
      ),
    ])
    .where('research_runs.id', '=', id);
  return (options.lock ? query.forUpdate('research_runs') : query).executeTakeFirst();
}

/** One source of a run, with its text. */
export function findRunSource(db: Db, runId: string, sourceId: string): Promise<SourceRow | undefined> {
  return db.selectFrom('sources').selectAll().where('run_id', '=', runId).where('id', '=', sourceId).executeTakeFirst();
}

/** The next free positions (and the last round) of a run's sources and claims, to append after them. */
export async function nextRunPositions(
  db: Db,
  runId: string,
): Promise<{ source: number; claim: number; round: number }> {
  const row = await db
    .selectFrom('research_runs')
    .select([
      sql<number>`coalesce((select max(position) + 1 from sources where run_id = ${runId}), 0)`.as('source'),
      sql<number>`coalesce((select max(position) + 1 from claims where run_id = ${runId}), 0)`.as('claim'),
      sql<number>`coalesce((select max(round) from sources where run_id = ${runId}), 1)`.as('round'),
    ])
    .where('id', '=', runId)
    .executeTakeFirstOrThrow();
  return { source: Number(row.source), claim: Number(row.claim), round: Number(row.round) };
}

/** Claim ids of a run that already exist among `ids` (re-extraction of the same text gives the same ids). */
export async function existingClaimIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('claims').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** How many claims each source of a run holds (sources without claims are absent). */
export async function countClaimsBySource(db: Db, runId: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('claims')
    .select(['source_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('run_id', '=', runId)
    .groupBy('source_id')
    .execute();
  return new Map(rows.map((r) => [r.source_id, Number(r.n)]));
}
