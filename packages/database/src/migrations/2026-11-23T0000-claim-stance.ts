import type { Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// Each claim's stance toward the proposition of its run's question (supports, refutes or neutral), as the
// language model that extracted the claim judged it; null when no model judged it (the extractive engine,
// claims stored before this column). Kept beside the claim so every later step reads the same stance.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('claims').addColumn('stance', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('claims').dropColumn('stance').execute();
}
