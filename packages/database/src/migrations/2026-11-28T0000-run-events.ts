import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// The progress of each run as numbered events (1, 2, 3 … per run), written in the transaction of what they
// describe, so a client replays a run's whole history and resumes after the last event it saw. Numbers come
// from the run's own counter (`event_seq`), taken under the run's row lock: two writers of one run number
// their events in the order they commit, and a reader that sees event n has seen every event before it.
// State changes (and a failure's error, and a run's end) are written by a trigger, so every way a run
// changes state — worker, API, reconciler, an operator's SQL — leaves its events.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('research_runs')
    .addColumn('event_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('run_events')
    .addColumn('run_id', 'uuid', (c) => c.notNull().references('research_runs.id').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addPrimaryKeyConstraint('run_events_pkey', ['run_id', 'seq'])
    .execute();

  // A run's state events: `error` (a failure's text and step) before the `state`, and `end` after the state
  // of an end. Numbers are taken by updating the run's counter (only event_seq: this trigger does not fire again).
  await sql`create function run_events_of_state() returns trigger language plpgsql as $$
    declare
      ended boolean := new.state in ('completed', 'failed', 'cancelled');
      failed boolean := new.state = 'failed';
      n integer;
      last integer;
    begin
      if tg_op = 'UPDATE' and old.state is not distinct from new.state then
        return null;
      end if;
      n := 1 + (case when ended then 1 else 0 end) + (case when failed then 1 else 0 end);
      update research_runs set event_seq = event_seq + n where id = new.id returning event_seq into last;
      last := last - n;
      if failed then
        last := last + 1;
        insert into run_events (run_id, seq, type, data) values (new.id, last, 'error',
          jsonb_build_object('error', new.metadata->>'error', 'step', new.metadata->>'failed_step'));
      end if;
      last := last + 1;
      insert into run_events (run_id, seq, type, data) values (new.id, last, 'state', jsonb_build_object('state', new.state));
      if ended then
        last := last + 1;
        insert into run_events (run_id, seq, type, data) values (new.id, last, 'end', jsonb_build_object('state', new.state));
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger research_runs_state_events_insert
    after insert on research_runs
    for each row execute function run_events_of_state()`.execute(db);
  await sql`create trigger research_runs_state_events_update
    after update of state on research_runs
    for each row when (old.state is distinct from new.state)
    execute function run_events_of_state()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger research_runs_state_events_update on research_runs`.execute(db);
  await sql`drop trigger research_runs_state_events_insert on research_runs`.execute(db);
  await sql`drop function run_events_of_state()`.execute(db);
  await db.schema.dropTable('run_events').execute();
  await db.schema.alterTable('research_runs').dropColumn('event_seq').execute();
}
