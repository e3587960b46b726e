import { sql, type Expression, type SqlBool } from 'kysely';
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

/** Locks the non-hidden run `id` against a concurrent delete or purge while a follow-up copies it; its state. */
export function lockVisibleRunForShare(
  db: Db,
  id: string,
): Promise<{ id: string; state: string; source_count: number } | undefined> {
  return db
    .selectFrom('research_runs')
    .select(['id', 'state', 'source_count'])
    .where('id', '=', id)
    .where('is_hidden', '=', false)
    .forShare()
    .executeTakeFirst();
}

/** Sets the summary the full-text search reads (research_runs.search_vector is generated from it and the query). */
export async function setRunReportSummary(db: Db, runId: string, summary: string): Promise<void> {
  await db.updateTable('research_runs').set({ report_summary: summary }).where('id', '=', runId).execute();
}

/** What a filtered run list keeps: a parent's follow-ups, the runs a full-text query finds, or both. */
export interface RunListFilter {
  parentId?: string;
  /** Text as a web search box takes it (websearch_to_tsquery, `simple` configuration). */
  text?: string;
}

/** The list's conditions for `filter`, and its text as a tsquery (null without text). */
function filterOf(filter: RunListFilter) {
  const tsquery = filter.text === undefined ? null : sql`websearch_to_tsquery('simple', ${filter.text})`;
  const conditions: Expression<SqlBool>[] = [sql<SqlBool>`not r.is_hidden`];
  if (filter.parentId !== undefined) conditions.push(sql<SqlBool>`r.parent_id = ${filter.parentId}::uuid`);
  if (tsquery) conditions.push(sql<SqlBool>`r.search_vector @@ ${tsquery}`);
  return { tsquery, conditions };
}

/**
 * One page of the non-hidden runs `filter` keeps: by relevance to its text (ts_rank; a word of the question
 * weighs more than one of the report's summary), then newest first.
 */
export function listFilteredRuns(db: Db, filter: RunListFilter, limit: number, offset: number): Promise<RunListItem[]> {
  const { tsquery, conditions } = filterOf(filter);
  const rank = tsquery ? sql`ts_rank(r.search_vector, ${tsquery}) desc, ` : sql``;
  return sql<RunListItem>`select r.id, r.query, r.depth, r.state, r.created_at, r.source_count, r.claim_count,
    r.parent_id, coalesce(rr.password_hash is not null, false) as is_deletion_protected
  from research_runs r
  left join retention_records rr on rr.research_id = r.id
  where ${sql.join(conditions, sql` and `)}
  order by ${rank}r.created_at desc, r.id desc
  limit ${limit} offset ${offset}`
    .execute(db)
    .then((result) => result.rows);
}

/** How many non-hidden runs `filter` keeps. */
export async function countFilteredRuns(db: Db, filter: RunListFilter): Promise<number> {
  const { conditions } = filterOf(filter);
  const result = await sql<{ n: string }>`select count(*) as n from research_runs r
  where ${sql.join(conditions, sql` and `)}`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}
