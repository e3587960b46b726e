import type { ClaimRow, Db, EvidenceRow, NewClaim, NewSource, ReportRow, SearchResultRow, SourceRow } from '../schema';

// Large runs insert in slices to stay far below Postgres's 65,535 bind-parameter limit.
const SLICE = 500;

/** Inserts `items` in slices small enough for one statement's parameters. */
export async function insertInSlices<T>(items: T[], insert: (slice: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += SLICE) await insert(items.slice(i, i + SLICE));
}

export function insertSearchResults(db: Db, rows: SearchResultRow[]) {
  return insertInSlices(rows, (slice) => db.insertInto('search_results').values(slice).execute());
}

export function listSearchResults(db: Db, runId: string): Promise<SearchResultRow[]> {
  return db.selectFrom('search_results').selectAll().where('run_id', '=', runId).orderBy('position').execute();
}

export function insertSources(db: Db, rows: NewSource[]) {
  return insertInSlices(rows, (slice) => db.insertInto('sources').values(slice).execute());
}

/** Sources of a run in discovery order, without their extracted text (the public read). */
export function listSourceSummaries(db: Db, runId: string) {
  return db
    .selectFrom('sources')
    .select(['id', 'url', 'title', 'domain', 'source_type', 'retrieved_at', 'round', 'position', 'content_sha256'])
    .where('run_id', '=', runId)
    .orderBy('position')
    .execute();
}

/** Sources of a run with their extracted text (pipeline steps). */
export function listSources(db: Db, runId: string): Promise<SourceRow[]> {
  return db.selectFrom('sources').selectAll().where('run_id', '=', runId).orderBy('position').execute();
}

export function insertClaims(db: Db, rows: NewClaim[]) {
  return insertInSlices(rows, (slice) => db.insertInto('claims').values(slice).execute());
}

export function listClaims(db: Db, runId: string): Promise<ClaimRow[]> {
  return db.selectFrom('claims').selectAll().where('run_id', '=', runId).orderBy('position').execute();
}

/** Replaces every evidence score of a run (scores depend on all claims, so they are recomputed whole). */
export async function replaceEvidence(db: Db, runId: string, rows: EvidenceRow[]): Promise<void> {
  await db.deleteFrom('evidence_scores').where('run_id', '=', runId).execute();
  await insertInSlices(rows, (slice) => db.insertInto('evidence_scores').values(slice).execute());
}

export function listEvidence(db: Db, runId: string): Promise<EvidenceRow[]> {
  return db
    .selectFrom('evidence_scores')
    .innerJoin('claims', 'claims.id', 'evidence_scores.claim_id')
    .selectAll('evidence_scores')
    .where('evidence_scores.run_id', '=', runId)
    .orderBy('claims.position')
    .execute();
}

export async function upsertReport(
  db: Db,
  runId: string,
  report: Record<string, unknown>,
  generatedAt: Date,
): Promise<void> {
  await db
    .insertInto('reports')
    .values({ run_id: runId, report: JSON.stringify(report), generated_at: generatedAt })
    .onConflict((oc) => oc.column('run_id').doUpdateSet({ report: JSON.stringify(report), generated_at: generatedAt }))
    .execute();
}

export function findReport(db: Db, runId: string): Promise<ReportRow | undefined> {
  return db.selectFrom('reports').selectAll().where('run_id', '=', runId).executeTakeFirst();
}

export async function countRows(
  db: Db,
  table: 'sources' | 'claims' | 'search_results',
  runId: string,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('run_id', '=', runId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
