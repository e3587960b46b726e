import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// The evidence graph the compare step built for a run (clusters, relations, independence groups,
// contradictions, stances; JSON without the claims' or sources' text), stored once per run so the steps and
// routes after it read it instead of building it again. `inputs` names the claims and sources it was built over,
// so a reader tells a graph that no longer describes the run's claims. It goes with its run.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('evidence_graphs')
    .addColumn('run_id', 'uuid', (c) => c.primaryKey().references('research_runs.id').onDelete('cascade'))
    .addColumn('inputs', 'text', (c) => c.notNull())
    .addColumn('graph', 'jsonb', (c) => c.notNull())
    .addColumn('built_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('evidence_graphs').execute();
}
