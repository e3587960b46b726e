import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
// The crawler's cache of extracted pages, by normalised URL, so a near topic does not fetch them again.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('page_cache')
    .addColumn('url', 'text', (c) => c.primaryKey())
    .addColumn('final_url', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('document', 'jsonb', (c) => c.notNull())
    .addColumn('byte_size', 'integer', (c) => c.notNull())
    .addColumn('fetched_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('page_cache_expires_idx').on('page_cache').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('page_cache').execute();
}
