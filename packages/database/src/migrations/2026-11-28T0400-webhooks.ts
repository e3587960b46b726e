import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// Webhooks: a run may name a `callback_url`. When such a run ends, the transaction of its end writes one
// row to `webhook_deliveries` (an outbox: the row is the truth, the queue only carries it), and every
// attempt to deliver it is kept in `webhook_delivery_attempts`.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('research_runs').addColumn('callback_url', 'text').execute();
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    // One delivery per run: a run ends once (a later DELETE of an ended run owes nothing new).
    .addColumn('run_id', 'uuid', (c) => c.notNull().unique().references('research_runs.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // When the next attempt is due; null once delivered or given up.
    .addColumn('next_attempt_at', 'timestamptz', (c) => c.defaultTo(sql`now()`))
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('last_status', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at)
    where next_attempt_at is not null`.execute(db);
  await db.schema
    .createTable('webhook_delivery_attempts')
    .addColumn('delivery_id', 'uuid', (c) => c.notNull().references('webhook_deliveries.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('status_code', 'integer')
    .addColumn('error', 'text')
    .addPrimaryKeyConstraint('webhook_delivery_attempts_pkey', ['delivery_id', 'attempt'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_delivery_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.alterTable('research_runs').dropColumn('callback_url').execute();
}
