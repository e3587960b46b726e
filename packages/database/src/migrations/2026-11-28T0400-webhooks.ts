import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// Webhooks: a run may name a `callback_url`. When such a run ends, the transaction of its end writes one
// row to `webhook_deliveries` (an outbox: the row is the truth, the queue only carries it), and every
// attempt to deliver it is kept in `webhook_delivery_attempts`. The row is written by a trigger on the
// run's state, as its progress events are: every way a run ends (worker, API, reconciler, an operator's
// SQL) owes its webhook.
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

  // The payload is what the receiver gets (`finished_at` as ISO 8601 UTC); a run owes one delivery at most.
  await sql`create function webhook_delivery_of_end() returns trigger language plpgsql as $$
    begin
      insert into webhook_deliveries (run_id, event, payload)
      values (new.id, 'research.' || new.state, jsonb_build_object(
        'event', 'research.' || new.state,
        'research_id', new.id,
        'state', new.state,
        'finished_at', to_char(coalesce(new.finished_at, new.updated_at, now()) at time zone 'UTC',
          'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')))
      on conflict (run_id) do nothing;
      return null;
    end $$`.execute(db);
  await sql`create trigger research_runs_webhook_delivery
    after update of state on research_runs
    for each row when (new.callback_url is not null and old.state is distinct from new.state
      and new.state in ('completed', 'failed', 'cancelled'))
    execute function webhook_delivery_of_end()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger research_runs_webhook_delivery on research_runs`.execute(db);
  await sql`drop function webhook_delivery_of_end()`.execute(db);
  await db.schema.dropTable('webhook_delivery_attempts').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.alterTable('research_runs').dropColumn('callback_url').execute();
}
