import type { Db, RunEventRow } from '../schema';

/** A run's progress events of the given types, oldest first. */
export function listRunEventsOfTypes(db: Db, runId: string, types: readonly string[]): Promise<RunEventRow[]> {
  if (types.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('run_events')
    .selectAll()
    .where('run_id', '=', runId)
    .where('type', 'in', types)
    .orderBy('seq')
    .execute();
}

/** The queries a run's stored search hits came from, once each per round, in the order the hits were stored. */
export async function listHitQueries(db: Db, runId: string): Promise<Array<{ round: number; query: string }>> {
  const rows = await db
    .selectFrom('search_results')
    .select(['round', 'query'])
    .select((eb) => eb.fn.min('position').as('first'))
    .where('run_id', '=', runId)
    .groupBy(['round', 'query'])
    .orderBy('first')
    .execute();
  return rows.map((r) => ({ round: r.round, query: r.query }));
}
