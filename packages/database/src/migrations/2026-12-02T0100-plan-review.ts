import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// Plan review: a run created with review_plan stops after its plan in state `awaiting_review` until a caller
// approves it (or cancels it, or it expires). `review_requested_at` is when its plan began to wait: the
// sweep that expires reviews reads it through the partial index, which holds only the runs waiting now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('research_runs')
    .addColumn('review_plan', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('review_requested_at', 'timestamptz')
    .execute();
  await sql`create index research_runs_awaiting_review_idx on research_runs (review_requested_at) where state = 'awaiting_review'`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index research_runs_awaiting_review_idx`.execute(db);
  await db.schema.alterTable('research_runs').dropColumn('review_requested_at').dropColumn('review_plan').execute();
}
