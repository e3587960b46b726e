import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// POST /v1/research/estimate reads the last completed runs of a depth, newest first: this index finds them
// without reading the other runs, however many the service holds.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`create index research_runs_completed_depth_idx on research_runs (depth, finished_at desc) where state = 'completed'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index if exists research_runs_completed_depth_idx`.execute(db);
}
