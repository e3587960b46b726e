import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// Follow-up questions and finding runs by text.
//
// `research_runs.parent_id`: the run a follow-up started from (its sources, claims and evidence were copied into the
// follow-up when it was created, so the follow-up keeps them whatever becomes of the parent); a purged parent
// leaves it null.
//
// `run_search`: what GET /v1/research?q=… searches, one narrow row per run kept by triggers: the question (weight A)
// and its report's summary (weight B) as a tsvector under the `simple` configuration (runs are written in many
// languages, and one language's stemmer would mangle the others), with the run's created_at and is_hidden. A
// search ranks every run that matches, reading each one's tsvector: in a table of its own they sit on a few pages
// instead of across the wide rows of research_runs (plan, checkpoint and usage beside them).
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('research_runs')
    .addColumn('parent_id', 'uuid', (c) => c.references('research_runs.id').onDelete('set null'))
    .execute();
  // GET /v1/research?parent_id=…: a run's visible follow-ups, newest first.
  await sql`create index research_runs_parent_idx on research_runs (parent_id, created_at desc, id desc) where parent_id is not null and not is_hidden`.execute(
    db,
  );

  // Writers wait until this migration commits, so the rows copied and the triggers see the same runs and reports.
  await sql`lock table research_runs, reports in share row exclusive mode`.execute(db);
  await sql`create table run_search (
    run_id uuid primary key references research_runs (id) on delete cascade,
    created_at timestamptz not null,
    is_hidden boolean not null,
    search_vector tsvector not null
  )`.execute(db);
  await sql`insert into run_search (run_id, created_at, is_hidden, search_vector)
    select r.id, r.created_at, r.is_hidden,
      setweight(to_tsvector('simple', r.query), 'A') ||
      setweight(to_tsvector('simple', coalesce(rep.report->>'summary', '')), 'B')
    from research_runs r left join reports rep on rep.run_id = r.id`.execute(db);
  // fastupdate off: a run's words go into the index at once instead of a pending list that every search scans until
  // the next vacuum (runs and reports are written a few a second at most).
  await sql`create index run_search_vector_idx on run_search using gin (search_vector) with (fastupdate = off) where not is_hidden`.execute(
    db,
  );

  // A new run: its question (once per statement, so a bulk insert is one statement here too).
  await sql`create function run_search_after_run_insert() returns trigger language plpgsql as $$
    begin
      insert into run_search (run_id, created_at, is_hidden, search_vector)
        select id, created_at, is_hidden, setweight(to_tsvector('simple', query), 'A') from inserted_runs;
      return null;
    end $$`.execute(db);
  await sql`create trigger research_runs_search_insert
    after insert on research_runs referencing new table as inserted_runs
    for each statement execute function run_search_after_run_insert()`.execute(db);

  // A soft delete hides the run from the search as from the list.
  await sql`create function run_search_after_hide() returns trigger language plpgsql as $$
    begin
      update run_search set is_hidden = new.is_hidden where run_id = new.id;
      return null;
    end $$`.execute(db);
  await sql`create trigger research_runs_search_hide
    after update of is_hidden on research_runs
    for each row when (old.is_hidden is distinct from new.is_hidden)
    execute function run_search_after_hide()`.execute(db);

  // A stored or replaced report: its summary joins the question.
  await sql`create function run_search_after_report() returns trigger language plpgsql as $$
    begin
      update run_search s set search_vector =
          setweight(to_tsvector('simple', r.query), 'A') ||
          setweight(to_tsvector('simple', coalesce(n.report->>'summary', '')), 'B')
        from written_reports n join research_runs r on r.id = n.run_id
        where s.run_id = n.run_id;
      return null;
    end $$`.execute(db);
  await sql`create trigger reports_search_insert
    after insert on reports referencing new table as written_reports
    for each statement execute function run_search_after_report()`.execute(db);
  await sql`create trigger reports_search_update
    after update on reports referencing new table as written_reports
    for each statement execute function run_search_after_report()`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop trigger reports_search_update on reports`.execute(db);
  await sql`drop trigger reports_search_insert on reports`.execute(db);
  await sql`drop trigger research_runs_search_hide on research_runs`.execute(db);
  await sql`drop trigger research_runs_search_insert on research_runs`.execute(db);
  await sql`drop function run_search_after_report()`.execute(db);
  await sql`drop function run_search_after_hide()`.execute(db);
  await sql`drop function run_search_after_run_insert()`.execute(db);
  await sql`drop table run_search`.execute(db);
  await sql`drop index research_runs_parent_idx`.execute(db);
  await db.schema.alterTable('research_runs').dropColumn('parent_id').execute();
}
