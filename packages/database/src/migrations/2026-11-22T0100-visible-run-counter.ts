import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// The run list's `total` (non-hidden runs) as a one-row counter kept exact by triggers on research_runs,
// instead of counting the table on every list request. The triggers run in the writing transaction, so
// the counter changes exactly when the rows do: it is right inside a transaction and after a rollback.
export async function up(db: Kysely<any>): Promise<void> {
  // Writers wait until this migration commits, so the initial count and the triggers see the same rows.
  await sql`lock table research_runs in share row exclusive mode`.execute(db);

  await sql`create table visible_run_counter (
    id boolean primary key default true check (id),
    visible_runs bigint not null check (visible_runs >= 0)
  )`.execute(db);
  await sql`insert into visible_run_counter (id, visible_runs)
    select true, count(*) from research_runs where not is_hidden`.execute(db);

  // Inserts and deletes: once per statement, so a bulk insert updates the counter once.
  await sql`create function visible_run_counter_after_insert() returns trigger language plpgsql as $$
    declare added bigint;
    begin
      select count(*) into added from inserted_runs where not is_hidden;
      if added > 0 then
        update visible_run_counter set visible_runs = visible_runs + added;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger research_runs_visible_counter_insert
    after insert on research_runs referencing new table as inserted_runs
    for each statement execute function visible_run_counter_after_insert()`.execute(db);

  await sql`create function visible_run_counter_after_delete() returns trigger language plpgsql as $$
    declare removed bigint;
    begin
      select count(*) into removed from deleted_runs where not is_hidden;
      if removed > 0 then
        update visible_run_counter set visible_runs = visible_runs - removed;
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger research_runs_visible_counter_delete
    after delete on research_runs referencing old table as deleted_runs
    for each statement execute function visible_run_counter_after_delete()`.execute(db);

  // Updates: only rows whose is_hidden really changes (a soft delete), so the workers' frequent state
  // and checkpoint writes neither fire it nor touch the counter row.
  await sql`create function visible_run_counter_after_hide() returns trigger language plpgsql as $$
    begin
      update visible_run_counter set visible_runs = visible_runs + case when new.is_hidden then -1 else 1 end;
      return null;
    end $$`.execute(db);
  await sql`create trigger research_runs_visible_counter_update
    after update of is_hidden on research_runs
    for each row when (old.is_hidden is distinct from new.is_hidden)
    execute function visible_run_counter_after_hide()`.execute(db);

  await sql`create function visible_run_counter_after_truncate() returns trigger language plpgsql as $$
    begin
      update visible_run_counter set visible_runs = 0;
      return null;
    end $$`.execute(db);
  await sql`create trigger research_runs_visible_counter_truncate
    after truncate on research_runs
    for each statement execute function visible_run_counter_after_truncate()`.execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward-only');
}
