import { sql } from 'kysely';
import type { Db } from '../schema';
import type { RunListItem } from './runs.repository';

// A follow-up's copy of its parent's evidence. Each copied row gets an id of its own derived from the follow-up's
// id and the parent row's id (md5 as a UUID), so the claims' source_id and the evidence's claim_id are mapped in
// the statement itself, without reading the rows out. Copied rows keep their text, spans and content hashes; they
// stand in round 0, before the follow-up's own first round (the analyze step reads only its round's sources).

/** Copies the sources of run `parentId` into run `childId` (round 0, same positions, text and hashes). */
export async function copySourcesOfRun(db: Db, parentId: string, childId: string): Promise<void> {
  await sql`insert into sources (id, run_id, round, position, url, title, domain, source_type, retrieved_at, content,
    published_at, language, content_sha256)
  select md5(${childId} || ':' || s.id)::uuid::text, ${childId}::uuid, 0, s.position, s.url, s.title, s.domain,
    s.source_type, s.retrieved_at, s.content, s.published_at, s.language, s.content_sha256
  from sources s where s.run_id = ${parentId}::uuid`.execute(db);
}

/**
 * Copies the claims of run `parentId` into run `childId`, each citing its source's copy. Their stance is left out:
 * it was judged toward the parent's question, not the follow-up's.
 */
export async function copyClaimsOfRun(db: Db, parentId: string, childId: string): Promise<void> {
  await sql`insert into claims (id, run_id, source_id, round, position, claim_text, evidence_span, claim_type,
    confidence, stance, span_start, span_end)
  select md5(${childId} || ':' || c.id)::uuid::text, ${childId}::uuid, md5(${childId} || ':' || c.source_id)::uuid::text,
    0, c.position, c.claim_text, c.evidence_span, c.claim_type, c.confidence, null, c.span_start, c.span_end
  from claims c where c.run_id = ${parentId}::uuid`.execute(db);
}

/** Copies the evidence scores of run `parentId` into run `childId`, each on its claim's copy. */
export async function copyEvidenceOfRun(db: Db, parentId: string, childId: string): Promise<void> {
  await sql`insert into evidence_scores (claim_id, run_id, evidence_type, source_independence_score,
    primary_source_proximity, cross_source_support, contradiction_level, evidence_directness, date_relevance_score)
  select md5(${childId} || ':' || e.claim_id)::uuid::text, ${childId}::uuid, e.evidence_type,
    e.source_independence_score, e.primary_source_proximity, e.cross_source_support, e.contradiction_level,
    e.evidence_directness, e.date_relevance_score
  from evidence_scores e where e.run_id = ${parentId}::uuid`.execute(db);
}

/**
 * Locks the non-hidden run `id` against a concurrent delete or purge while a follow-up copies it; its state and
 * how many sources it holds (counted: the stored source_count waits for a step's or a route's commit).
 */
export function lockVisibleRunForShare(
  db: Db,
  id: string,
): Promise<{ id: string; state: string; source_count: number } | undefined> {
  return db
    .selectFrom('research_runs')
    .select(['id', 'state'])
    .select(sql<number>`(select count(*)::int from sources s where s.run_id = research_runs.id)`.as('source_count'))
    .where('id', '=', id)
    .where('is_hidden', '=', false)
    .forShare()
    .executeTakeFirst();
}

/** Non-hidden follow-ups of run `parentId`, newest first, one page (research_runs_parent_idx). */
export function listRunsOfParent(db: Db, parentId: string, limit: number, offset: number): Promise<RunListItem[]> {
  return sql<RunListItem>`select r.id, r.query, r.depth, r.state, r.created_at, r.source_count, r.claim_count,
    r.parent_id, coalesce(rr.password_hash is not null, false) as is_deletion_protected
  from research_runs r
  left join retention_records rr on rr.research_id = r.id
  where r.parent_id = ${parentId}::uuid and not r.is_hidden
  order by r.created_at desc, r.id desc
  limit ${limit} offset ${offset}`
    .execute(db)
    .then((result) => result.rows);
}

/** How many non-hidden follow-ups run `parentId` has. */
export async function countRunsOfParent(db: Db, parentId: string): Promise<number> {
  const result = await sql<{ n: string }>`select count(*) as n from research_runs r
  where r.parent_id = ${parentId}::uuid and not r.is_hidden`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/** What a full-text search of the run list keeps: runs whose question or report summary hold `text`. */
export interface RunSearch {
  /** Text as a web search box takes it (websearch_to_tsquery, `simple` configuration). */
  text: string;
  /** Only the follow-ups of this run. */
  parentId?: string;
}

/** The runs a search matches, as a filter of run_search `s` (joined to their runs when they need a parent). */
function searchOf(search: RunSearch) {
  const tsquery = sql`websearch_to_tsquery('simple', ${search.text})`;
  const ofParent =
    search.parentId === undefined
      ? sql``
      : sql`join research_runs p on p.id = s.run_id and p.parent_id = ${search.parentId}::uuid`;
  return {
    tsquery,
    from: sql`run_search s ${ofParent}`,
    where: sql`not s.is_hidden and s.search_vector @@ ${tsquery}`,
  };
}

/**
 * One page of the non-hidden runs a search matches, by relevance (ts_rank: a word of the question weighs more than
 * one of the report's summary), then newest first; each row carries the number of all matches (`total`), counted in
 * the same scan (a page past the end has no row: countFoundRuns counts then).
 */
export async function findRuns(
  db: Db,
  search: RunSearch,
  limit: number,
  offset: number,
): Promise<Array<RunListItem & { total: number }>> {
  const { tsquery, from, where } = searchOf(search);
  const result = await sql<RunListItem & { total: string }>`with hits as (
    select s.run_id, s.created_at, ts_rank(s.search_vector, ${tsquery}) as rank, count(*) over () as total
    from ${from}
    where ${where}
    order by rank desc, s.created_at desc, s.run_id desc
    limit ${limit} offset ${offset}
  )
  select r.id, r.query, r.depth, r.state, r.created_at, r.source_count, r.claim_count, r.parent_id,
    coalesce(rr.password_hash is not null, false) as is_deletion_protected, hits.total
  from hits
  join research_runs r on r.id = hits.run_id
  left join retention_records rr on rr.research_id = r.id
  order by hits.rank desc, hits.created_at desc, hits.run_id desc`.execute(db);
  return result.rows.map((row) => ({ ...row, total: Number(row.total) }));
}

/** How many non-hidden runs a search matches. */
export async function countFoundRuns(db: Db, search: RunSearch): Promise<number> {
  const { from, where } = searchOf(search);
  const result = await sql<{ n: string }>`select count(*) as n from ${from} where ${where}`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}
