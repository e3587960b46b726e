import type { Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// A run's source controls (POST /v1/research's include_domains, exclude_domains, published_after and
// max_sources), as given at creation; null for a run created without any.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('research_runs').addColumn('source_controls', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('research_runs').dropColumn('source_controls').execute();
}
