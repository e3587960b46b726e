import { sql } from 'kysely';
import type { Db, RunEventRow } from '../schema';
import { insertInSlices } from './results.repository';

/** A progress event before it is numbered: its type and its fields. */
export interface NewRunEvent {
  type: string;
  data: Record<string, unknown>;
}

/**
 * Appends `events` to the run's progress, numbered after its last event. Call it inside the transaction of
 * what the events describe: the number is taken under the run's row lock, so events become visible when
 * that transaction commits, in order. Nothing is written for a run that does not exist.
 */
export async function appendRunEvents(db: Db, runId: string, events: readonly NewRunEvent[]): Promise<void> {
  if (events.length === 0) return;
  const taken = await db
    .updateTable('research_runs')
    .set({ event_seq: sql<number>`event_seq + ${events.length}` })
    .where('id', '=', runId)
    .returning('event_seq')
    .executeTakeFirst();
  if (!taken) return;
  const first = taken.event_seq - events.length + 1;
  const rows = events.map((e, i) => ({ run_id: runId, seq: first + i, type: e.type, data: JSON.stringify(e.data) }));
  await insertInSlices(rows, (slice) => db.insertInto('run_events').values(slice).execute());
}

/** The run's events after `after` (default: all), oldest first, at most `limit`; only those of `types` when given. */
export function listRunEvents(
  db: Db,
  runId: string,
  page: { after?: number; limit?: number; types?: readonly string[] } = {},
): Promise<RunEventRow[]> {
  if (page.types?.length === 0) return Promise.resolve([]);
  let query = db
    .selectFrom('run_events')
    .selectAll()
    .where('run_id', '=', runId)
    .where('seq', '>', page.after ?? 0);
  if (page.types) query = query.where('type', 'in', page.types);
  if (page.limit !== undefined) query = query.limit(page.limit);
  return query.orderBy('seq').execute();
}

/**
 * The events after each run's cursor, in one statement (a process's open streams polled together), by run
 * and number, at most `limit` in all.
 */
export async function listRunEventsAfter(
  db: Db,
  cursors: ReadonlyArray<{ runId: string; after: number }>,
  limit: number,
): Promise<RunEventRow[]> {
  if (cursors.length === 0) return [];
  const ids = cursors.map((c) => c.runId);
  const afters = cursors.map((c) => c.after);
  const result = await sql<RunEventRow>`
    select e.run_id, e.seq, e.type, e.at, e.data
    from unnest(${ids}::uuid[], ${afters}::integer[]) as c(run_id, after)
    join run_events e on e.run_id = c.run_id and e.seq > c.after
    order by e.run_id, e.seq
    limit ${limit}`.execute(db);
  return result.rows;
}
