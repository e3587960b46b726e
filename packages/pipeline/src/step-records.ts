import crypto from 'node:crypto';
import {
  CLAIM_STANCES,
  contentSha256,
  sourceIndexes,
  fitClaimCaps,
  locateQuote,
  tallyClaims,
  reportBodySchema,
  stripNul,
  type CodePointIndex,
  type Budget,
  type ClaimDraft,
  type EvidenceDraft,
  type ReportBody,
  type SearchResultDraft,
  type SourceDraft,
} from '@research/core';
import {
  insertClaims,
  insertSearchResults,
  insertSources,
  replaceClaimGraph,
  replaceEvidence,
  copyClaimsOfRun,
  copyEvidenceOfRun,
  copySourcesOfRun,
  upsertReport,
  type ClaimRow,
  type Db,
  type EvidenceRow,
  type NewClaimCluster,
  type NewClaimRelation,
  type RunRow,
  type SearchResultRow,
  type SourceRow,
} from '@research/database';
import type { SnapshotOf } from './steps';

// The orchestrator owns the invariants of stored records, whatever engine produced them: ids unique,
// positions continuous, every claim quoting its source, one evidence row per claim, scores in [0, 1].

function clean(text: string): string {
  return stripNul(text);
}

/** A JSON object without NUL characters in its strings (jsonb refuses them). */
export function cleanJson<T extends object>(value: T): T {
  return JSON.parse(JSON.stringify(value, (_key, v: unknown) => (typeof v === 'string' ? stripNul(v) : v))) as T;
}

function cleanOrNull(text: string | null | undefined): string | null {
  return text === null || text === undefined ? null : stripNul(text);
}

/** A stance a model gave, or null for none or one outside CLAIM_STANCES. */
function stanceOrNull(value: unknown): string | null {
  return (CLAIM_STANCES as readonly unknown[]).includes(value) ? (value as string) : null;
}

function unit(value: unknown, fallback: number): number {
  const n = typeof value === 'number' && Number.isFinite(value) ? value : fallback;
  return Math.min(1, Math.max(0, n));
}

function nextPosition(rows: Array<{ position: number }>): number {
  return rows.reduce((max, r) => Math.max(max, r.position + 1), 0);
}

function isoOrNow(value: string | null | undefined, now: Date): Date {
  const parsed = value ? new Date(value) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : now;
}

/** Search hits of one round as rows (positions continue the run's). */
export function searchResultRows(
  run: RunRow,
  round: number,
  drafts: SearchResultDraft[],
  snapshot: SnapshotOf<'searchResults'>,
): SearchResultRow[] {
  const start = nextPosition(snapshot.searchResults);
  return drafts.map((d, i) => ({
    id: crypto.randomUUID(),
    run_id: run.id,
    round,
    position: start + i,
    query: clean(d.query),
    url: clean(d.url),
    title: cleanOrNull(d.title),
    snippet: cleanOrNull(d.snippet),
    published_at: cleanOrNull(d.published_at),
    provider: clean(d.provider),
    rank: Number.isInteger(d.rank) ? d.rank : i + 1,
  }));
}

/**
 * One source as a row: its draft's text without NUL characters and that text's SHA-256, at `at.position` of the run's `at.round`
 * (`now`: its retrieval time when the draft has none).
 */
export function sourceRow(
  run: RunRow,
  at: { round: number; position: number },
  draft: SourceDraft,
  now: Date,
): SourceRow {
  const content = clean(draft.content ?? '');
  return {
    id: draft.id || crypto.randomUUID(),
    run_id: run.id,
    round: at.round,
    position: at.position,
    url: clean(draft.url),
    title: cleanOrNull(draft.title),
    domain: clean(draft.domain ?? ''),
    source_type: cleanOrNull(draft.source_type),
    retrieved_at: isoOrNow(draft.retrieved_at, now),
    content,
    published_at: cleanOrNull(draft.published_at),
    language: cleanOrNull(draft.language),
    content_sha256: contentSha256(content),
  };
}

/**
 * New sources of one round: no URL twice in a run (`snapshot`: its stored sources), never more than the
 * budget's max_sources (`now`: the retrieval time of drafts without one).
 */
export function sourceRows(
  run: RunRow,
  round: number,
  drafts: SourceDraft[],
  options: { snapshot: SnapshotOf<'sources'>; budget: Budget; now: Date },
): SourceRow[] {
  const { snapshot, budget, now } = options;
  const seenUrls = new Set(snapshot.sources.map((s) => s.url));
  const seenIds = new Set(snapshot.sources.map((s) => s.id));
  const room = Math.max(0, budget.max_sources - snapshot.sources.length);
  const start = nextPosition(snapshot.sources);
  const rows: SourceRow[] = [];
  for (const d of drafts) {
    if (rows.length >= room) break;
    if (seenUrls.has(d.url)) continue;
    const id = d.id && !seenIds.has(d.id) ? d.id : crypto.randomUUID();
    seenUrls.add(d.url);
    seenIds.add(id);
    rows.push(sourceRow(run, { round, position: start + rows.length }, { ...d, id }, now));
  }
  return rows;
}

/**
 * A claim's evidence span placed in its source's text: the exact passage the span reads as (the span
 * itself, or the same words across the text's own line breaks) and its code point offsets. Null when the
 * source does not hold it.
 */
function placeEvidence<D extends ClaimDraft>(
  draft: D,
  source: { content: string },
  index: () => CodePointIndex,
): (D & { span_start: number; span_end: number }) | null {
  const at = locateQuote(source.content, draft.evidence_span);
  if (!at) return null;
  return {
    ...draft,
    evidence_span: source.content.slice(at.start, at.end),
    span_start: index().toCodePoint(at.start),
    span_end: index().toCodePoint(at.end),
  };
}

/**
 * New claims of one round: each of a known source, quoting it (claims that do not are dropped), and
 * within MAX_CLAIMS_PER_SOURCE and MAX_CLAIMS_PER_RUN beside the claims the run already holds
 * (`overLimit`: the grounded claims left out for that). A claim's evidence span is stored as its source's
 * text writes it, with its offsets in that text (see placeEvidence), so anyone can check it.
 */
export function claimRows(
  run: RunRow,
  round: number,
  drafts: ClaimDraft[],
  snapshot: SnapshotOf<'sources' | 'claims'>,
): { rows: ClaimRow[]; overLimit: number } {
  const sources = new Map(snapshot.sources.map((s) => [s.id, s]));
  const indexOf = sourceIndexes();
  const grounded = drafts.flatMap((d) => {
    const source = sources.get(d.source_id);
    const placed = source ? placeEvidence(d, source, () => indexOf(source)) : null;
    return placed ? [placed] : [];
  });
  const { kept, dropped } = fitClaimCaps(grounded, tallyClaims(snapshot.claims));
  const seenIds = new Set(snapshot.claims.map((c) => c.id));
  const start = nextPosition(snapshot.claims);
  const rows = kept.map((d, i) => {
    const id = d.id && !seenIds.has(d.id) ? d.id : crypto.randomUUID();
    seenIds.add(id);
    return {
      id,
      run_id: run.id,
      source_id: d.source_id,
      round,
      position: start + i,
      claim_text: clean(d.claim_text),
      // The source's own text (stored without NUL characters), so never cleaned apart from it.
      evidence_span: d.evidence_span,
      claim_type: clean(d.claim_type || 'claim'),
      confidence: unit(d.confidence, 1),
      stance: stanceOrNull(d.stance),
      span_start: d.span_start,
      span_end: d.span_end,
    };
  });
  return { rows, overLimit: dropped };
}

/** Exactly one evidence row per claim of the run; a claim the engine left out gets SPEC 2.4's defaults. */
export function evidenceRows(run: RunRow, drafts: EvidenceDraft[], snapshot: SnapshotOf<'claims'>): EvidenceRow[] {
  const byClaim = new Map(drafts.map((d) => [d.claim_id, d]));
  return snapshot.claims.map((claim) => {
    const d = byClaim.get(claim.id);
    return {
      claim_id: claim.id,
      run_id: run.id,
      evidence_type: d?.evidence_type === 'primary_report' ? 'primary_report' : 'secondary_report',
      source_independence_score: unit(d?.source_independence_score, 0.5),
      primary_source_proximity: unit(d?.primary_source_proximity, 0),
      cross_source_support: unit(d?.cross_source_support, 0),
      contradiction_level: unit(d?.contradiction_level, 1),
      evidence_directness: unit(d?.evidence_directness, 0.5),
      date_relevance_score: unit(d?.date_relevance_score, 0.5),
    };
  });
}

/** The stored report (SPEC 2.6): validated body, findings citing only sources the run has. */
export function reportRecord(
  run: RunRow,
  body: ReportBody,
  snapshot: SnapshotOf<'sources'>,
  now: Date,
): { report: Record<string, unknown>; generatedAt: Date } {
  const parsed = reportBodySchema.parse(body);
  const known = new Set(snapshot.sources.map((s) => s.id));
  const generatedAt = isoOrNow(parsed.generated_at, now);
  const report = {
    research_id: run.id,
    query: run.query,
    ...parsed,
    findings: parsed.findings.map((f) => ({ ...f, source_ids: f.source_ids.filter((id) => known.has(id)) })),
    generated_at: generatedAt.toISOString(),
  };
  // Text from the web may carry NUL characters, which jsonb refuses.
  return { report: cleanJson(report), generatedAt };
}

/** Stores search hits (the search_results table is written only here). */
export async function writeSearchResults(trx: Db, rows: SearchResultRow[]): Promise<void> {
  if (rows.length) await insertSearchResults(trx, rows);
}

/** Stores sources (the sources table is written only here). */
export async function writeSources(trx: Db, rows: SourceRow[]): Promise<void> {
  if (rows.length) await insertSources(trx, rows);
}

/** Stores claims (the claims table is written only here). */
export async function writeClaims(trx: Db, rows: ClaimRow[]): Promise<void> {
  if (rows.length) await insertClaims(trx, rows);
}

/** Replaces a run's evidence (the evidence table is written only here). */
export async function writeEvidence(trx: Db, runId: string, rows: EvidenceRow[]): Promise<void> {
  await replaceEvidence(trx, runId, rows);
}

/** Stores a run's report, replacing an older one (the reports table is written only here). */
export async function writeReport(
  trx: Db,
  runId: string,
  record: { report: Record<string, unknown>; generatedAt: Date },
): Promise<void> {
  await upsertReport(trx, runId, record.report, record.generatedAt);
}

/**
 * Stores a follow-up's copy of its parent's sources, claims and evidence (new ids, the same text, spans and
 * hashes), which the follow-up then holds whatever becomes of the parent: where a follow-up's evidence is seeded,
 * in the transaction that creates it.
 */
export async function writeInheritedEvidence(trx: Db, parentId: string, runId: string): Promise<void> {
  await copySourcesOfRun(trx, parentId, runId);
  await copyClaimsOfRun(trx, parentId, runId);
  await copyEvidenceOfRun(trx, parentId, runId);
}

/** Replaces a run's clusters and claim relations (the claim graph's tables are written only here). */
export async function writeClaimGraph(
  trx: Db,
  runId: string,
  rows: { clusters: NewClaimCluster[]; relations: NewClaimRelation[] },
  computedAt: Date,
): Promise<void> {
  await replaceClaimGraph(trx, runId, { ...rows, computedAt });
}
