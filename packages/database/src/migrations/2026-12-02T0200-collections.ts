import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// Collections of documents a user uploads (or the service keeps in step with LOCAL_CORPUS_DIR: owner null,
// readable by every key). Each document holds its extracted text, the SHA-256 of that text (as a source's
// content_sha256) and a tsvector built with the collection's text search configuration, under a GIN index.
// A run that searches collections names them in research_runs.collections: {ids, web}.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('collections')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('owner_user_id', 'uuid', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('language', 'text')
    .addColumn('text_search_config', 'text', (c) => c.notNull().defaultTo('simple'))
    // A collection the service keeps itself (`local`: LOCAL_CORPUS_DIR's files), one of each.
    .addColumn('system_key', 'text', (c) => c.unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('collections_owner_idx')
    .on('collections')
    .columns(['owner_user_id', 'created_at'])
    .execute();
  await db.schema
    .createTable('collection_documents')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('collection_id', 'uuid', (c) => c.notNull().references('collections.id').onDelete('cascade'))
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('content_sha256', 'text', (c) => c.notNull())
    .addColumn('search_vector', sql`tsvector`, (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('collection_documents_collection_idx')
    .on('collection_documents')
    .columns(['collection_id', 'created_at'])
    .execute();
  await sql`CREATE INDEX collection_documents_search_idx ON collection_documents USING gin (search_vector)`.execute(db);
  await db.schema.alterTable('research_runs').addColumn('collections', 'jsonb').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('research_runs').dropColumn('collections').execute();
  await db.schema.dropTable('collection_documents').execute();
  await db.schema.dropTable('collections').execute();
}
