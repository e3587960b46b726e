import type { ColumnType, Kysely } from 'kysely';
import type { DB, Db } from '../schema';

export interface EvidenceGraphsTable {
  run_id: string;
  /** What the graph was built over (the engine's graphInputsKey). */
  inputs: string;
  /** jsonb written as JSON text, read parsed: the engine's StoredGraph. */
  graph: ColumnType<Record<string, unknown>, string, string>;
  built_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** The table of stored evidence graphs (migration 2026-12-01T0000-evidence-graph) on top of DB. */
interface EvidenceGraphDB extends DB {
  evidence_graphs: EvidenceGraphsTable;
}

function graphDb(db: Db): Kysely<EvidenceGraphDB> {
  // Same connection; the table is only known to this module's type.
  return db as unknown as Kysely<EvidenceGraphDB>;
}

/** The run's stored evidence graph (as JSON), or undefined when none was stored. */
export async function findEvidenceGraph(
  db: Db,
  runId: string,
): Promise<{ inputs: string; graph: Record<string, unknown> } | undefined> {
  return graphDb(db)
    .selectFrom('evidence_graphs')
    .select(['inputs', 'graph'])
    .where('run_id', '=', runId)
    .executeTakeFirst();
}

/** Removes the run's stored evidence graph (a graph too large to store replaces it). */
export async function deleteEvidenceGraph(db: Db, runId: string): Promise<void> {
  await graphDb(db).deleteFrom('evidence_graphs').where('run_id', '=', runId).execute();
}

/**
 * Stores the run's evidence graph (the engine's StoredGraph, which names its `inputs`), replacing the one before
 * (call inside the step's transaction).
 */
export async function writeEvidenceGraph(
  db: Db,
  runId: string,
  stored: { readonly inputs: string },
  builtAt: Date,
): Promise<void> {
  const row = { inputs: stored.inputs, graph: JSON.stringify(stored), built_at: builtAt };
  await graphDb(db)
    .insertInto('evidence_graphs')
    .values({ run_id: runId, ...row })
    .onConflict((oc) => oc.column('run_id').doUpdateSet(row))
    .execute();
}
