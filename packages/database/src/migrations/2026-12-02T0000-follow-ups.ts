import { sql, type Kysely } from 'kysely';

// Frozen in time: never import application code here, never edit after release.
//
// Follow-up questions and finding runs by text.
//
// `parent_id`: the run a follow-up started from (its sources, claims and evidence were copied into the follow-up
// when it was created, so the follow-up keeps them whatever becomes of the parent); a purged parent leaves it null.
//
// `report_summary` is the summary of the run's stored report, kept beside the run by the report's writer, so that
// `search_vector` (the question weighted A, the summary B, under the `simple` configuration: runs are written in
// many languages, and a language's stemmer would mangle the others) is a generated column of one row, with a GIN
// index over the visible runs that GET /v1/research?q=… searches.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('research_runs')
    .addColumn('parent_id', 'uuid', (c) => c.references('research_runs.id').onDelete('set null'))
    .addColumn('report_summary', 'text')
    .execute();
  await sql`alter table research_runs add column search_vector tsvector generated always as (
    setweight(to_tsvector('simple', query), 'A') || setweight(to_tsvector('simple', coalesce(report_summary, '')), 'B')
  ) stored`.execute(db);
  await sql`update research_runs r set report_summary = rep.report->>'summary' from reports rep where rep.run_id = r.id`.execute(
    db,
  );
  // GET /v1/research?parent_id=…: a run's visible follow-ups, newest first.
  await sql`create index research_runs_parent_idx on research_runs (parent_id, created_at desc, id desc) where parent_id is not null and not is_hidden`.execute(
    db,
  );
  await sql`create index research_runs_search_idx on research_runs using gin (search_vector) where not is_hidden`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`drop index research_runs_search_idx`.execute(db);
  await sql`drop index research_runs_parent_idx`.execute(db);
  await db.schema
    .alterTable('research_runs')
    .dropColumn('search_vector')
    .dropColumn('report_summary')
    .dropColumn('parent_id')
    .execute();
}
