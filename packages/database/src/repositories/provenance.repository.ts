import type { Db } from '../schema';

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
