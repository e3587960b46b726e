import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('is_admin', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text')
    .addColumn('salt', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('last_used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_keys_user_idx').on('api_keys').column('user_id').execute();

  await db.schema
    .createTable('research_runs')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('depth', 'text', (c) => c.notNull())
    .addColumn('budget', 'jsonb', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz')
    .addColumn('plan', 'jsonb')
    .addColumn('search_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('claim_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('owner_user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('is_hidden', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('extra_queries', 'jsonb')
    .addColumn('request_id', 'text')
    .addColumn('checkpoint', 'jsonb')
    .addColumn('checkpoint_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', 'timestamptz')
    .addColumn('finished_at', 'timestamptz')
    .addColumn('enqueued_at', 'timestamptz')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('usage', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .execute();
  // The list endpoint: non-hidden runs, newest first.
  await sql`create index research_runs_visible_created_idx on research_runs (created_at desc, id desc) where not is_hidden`.execute(
    db,
  );
  // The reconciler and the active-runs gauge: runs that have not reached an end state.
  await sql`create index research_runs_running_idx on research_runs (state) where state not in ('completed', 'failed', 'cancelled')`.execute(
    db,
  );

  await db.schema
    .createTable('search_results')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'uuid', (c) => c.notNull().references('research_runs.id').onDelete('cascade'))
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('snippet', 'text')
    .addColumn('published_at', 'text')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('search_results_run_idx').on('search_results').columns(['run_id', 'position']).execute();

  await db.schema
    .createTable('sources')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'uuid', (c) => c.notNull().references('research_runs.id').onDelete('cascade'))
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('domain', 'text', (c) => c.notNull())
    .addColumn('source_type', 'text')
    .addColumn('retrieved_at', 'timestamptz', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('published_at', 'text')
    .addColumn('language', 'text')
    .execute();
  await db.schema.createIndex('sources_run_idx').on('sources').columns(['run_id', 'position']).execute();

  await db.schema
    .createTable('claims')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'uuid', (c) => c.notNull().references('research_runs.id').onDelete('cascade'))
    .addColumn('source_id', 'text', (c) => c.notNull().references('sources.id').onDelete('cascade'))
    .addColumn('round', 'integer', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('claim_text', 'text', (c) => c.notNull())
    .addColumn('evidence_span', 'text', (c) => c.notNull())
    .addColumn('claim_type', 'text', (c) => c.notNull())
    .addColumn('confidence', 'double precision', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('claims_run_idx').on('claims').columns(['run_id', 'position']).execute();
  await db.schema.createIndex('claims_source_idx').on('claims').column('source_id').execute();

  await db.schema
    .createTable('evidence_scores')
    .addColumn('claim_id', 'text', (c) => c.primaryKey().references('claims.id').onDelete('cascade'))
    .addColumn('run_id', 'uuid', (c) => c.notNull().references('research_runs.id').onDelete('cascade'))
    .addColumn('evidence_type', 'text', (c) => c.notNull())
    .addColumn('source_independence_score', 'double precision', (c) => c.notNull())
    .addColumn('primary_source_proximity', 'double precision', (c) => c.notNull())
    .addColumn('cross_source_support', 'double precision', (c) => c.notNull())
    .addColumn('contradiction_level', 'double precision', (c) => c.notNull())
    .addColumn('evidence_directness', 'double precision', (c) => c.notNull())
    .addColumn('date_relevance_score', 'double precision', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('evidence_scores_run_idx').on('evidence_scores').column('run_id').execute();

  await db.schema
    .createTable('reports')
    .addColumn('run_id', 'uuid', (c) => c.primaryKey().references('research_runs.id').onDelete('cascade'))
    .addColumn('report', 'jsonb', (c) => c.notNull())
    .addColumn('generated_at', 'timestamptz', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('retention_records')
    .addColumn('research_id', 'uuid', (c) => c.primaryKey().references('research_runs.id').onDelete('cascade'))
    .addColumn('owner_user_id', 'uuid', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('is_hidden', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('hidden_at', 'timestamptz')
    .addColumn('password_hash', 'text')
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index retention_records_hidden_idx on retention_records (hidden_at desc) where is_hidden`.execute(
    db,
  );

  // No foreign key: the audit trail outlives the purged run.
  await db.schema
    .createTable('deletion_audit')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('research_id', 'uuid', (c) => c.notNull())
    .addColumn('actor_user_id', 'uuid')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('deletion_audit_run_idx').on('deletion_audit').column('research_id').execute();
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only');
}
