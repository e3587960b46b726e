import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// The stored result of clustering a run's claims (POST /research/{id}/cluster-claims): clusters of claims
// stating the same proposition, their members, and the relations between claims (supports, refines,
// contradicts). Everything goes with its run or its claims (ON DELETE CASCADE).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('claim_clusters')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'uuid', (c) => c.notNull().references('research_runs.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('representative_claim_id', 'text', (c) => c.notNull().references('claims.id').onDelete('cascade'))
    .addColumn('source_ids', 'jsonb', (c) => c.notNull())
    .addColumn('independent_groups', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex('claim_clusters_run_idx').on('claim_clusters').columns(['run_id', 'position']).execute();

  await db.schema
    .createTable('claim_cluster_members')
    .addColumn('cluster_id', 'text', (c) => c.notNull().references('claim_clusters.id').onDelete('cascade'))
    .addColumn('claim_id', 'text', (c) => c.notNull().references('claims.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('claim_cluster_members_pk', ['cluster_id', 'claim_id'])
    .execute();
  await db.schema
    .createIndex('claim_cluster_members_claim_idx')
    .on('claim_cluster_members')
    .column('claim_id')
    .execute();

  await db.schema
    .createTable('claim_relations')
    .addColumn('run_id', 'uuid', (c) => c.notNull().references('research_runs.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('claim_id', 'text', (c) => c.notNull().references('claims.id').onDelete('cascade'))
    .addColumn('related_claim_id', 'text', (c) => c.notNull().references('claims.id').onDelete('cascade'))
    .addColumn('relation', 'text', (c) => c.notNull())
    .addColumn('contradiction_kind', 'text')
    .addColumn('detail', 'text')
    .addPrimaryKeyConstraint('claim_relations_pk', ['run_id', 'position'])
    .execute();
  await db.schema.createIndex('claim_relations_claim_idx').on('claim_relations').column('claim_id').execute();
  await db.schema
    .createIndex('claim_relations_related_claim_idx')
    .on('claim_relations')
    .column('related_claim_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('claim_relations').execute();
  await db.schema.dropTable('claim_cluster_members').execute();
  await db.schema.dropTable('claim_clusters').execute();
}
