import {
  evidenceScoresOf,
  isRunning,
  iso,
  readRunCollections,
  reportBodySchema,
  runCostOf,
  Details,
  type LlmPrices,
} from '@research/core';
import type { ClaimRow, EvidenceRow, ReportRow, RunListItem, VisibleRunRead } from '@research/database';
import type { SourceSummary } from '@research/runs';
import type {
  ClaimsResponse,
  CreateResearchResponse,
  EvidenceResponse,
  PlanResponse,
  ReportResponse,
  ResearchListItem,
  ResearchStatusResponse,
  SourcesResponse,
} from '../routes/research.schemas';

/** SPEC 4.2: the answer to a created run. */
export function presentCreatedRun(run: {
  id: string;
  query: string;
  depth: CreateResearchResponse['depth'];
}): CreateResearchResponse {
  return { research_id: run.id, status: 'pending', query: run.query, depth: run.depth, state: 'created' };
}

/** A run's rows as its read routes answer them: the run's id, the rows under `K`, their count. */
type RunRows<K extends string, Item> = { research_id: string } & Record<K, Item[]> & { total: number };

/** The answer of a read route that lists a run's rows: each row presented, under `key`, with their count. */
export function presentRunRows<K extends string, Row, Item>(
  runId: string,
  key: K,
  rows: readonly Row[],
  present: (row: Row) => Item,
): RunRows<K, Item> {
  // A computed key widens the literal's type to an index signature; the shape is exactly RunRows.
  return { research_id: runId, [key]: rows.map(present), total: rows.length } as RunRows<K, Item>;
}

/** SPEC 4.3: one item of the run list. */
export function presentListItem(item: RunListItem): ResearchListItem {
  return {
    research_id: item.id,
    query: item.query,
    depth: item.depth,
    state: item.state,
    created_at: iso(item.created_at),
    source_count: item.source_count ?? 0,
    claim_count: item.claim_count ?? 0,
    is_deletion_protected: Boolean(item.is_deletion_protected),
    parent_id: item.parent_id ?? null,
  };
}

/**
 * SPEC 4.4: the body of GET /v1/research/{id} and /status, with what the run spent so far and how it was asked
 * for beyond SPEC's fields (follow-up, plan review, collections: extensions).
 */
export function presentRunStatus(run: VisibleRunRead, prices: LlmPrices | null): ResearchStatusResponse {
  const error = run.metadata?.['error'];
  return {
    research_id: run.id,
    query: run.query,
    depth: run.depth,
    state: run.state,
    created_at: iso(run.created_at),
    updated_at: run.updated_at ? iso(run.updated_at) : null,
    search_count: run.search_count ?? 0,
    source_count: run.source_count ?? 0,
    claim_count: run.claim_count ?? 0,
    error: typeof error === 'string' ? error : null,
    is_completed: run.state === 'completed',
    is_running: isRunning(run.state),
    is_deletion_protected: Boolean(run.is_deletion_protected),
    cost: runCostOf({ usage: run.usage, budget: run.budget, pages: run.source_count ?? 0 }, prices),
    parent_id: run.parent_id ?? null,
    review_plan: Boolean(run.review_plan),
    collections: readRunCollections(run.collections),
  };
}

/** SPEC 4.5 / 2.2: sources without their extracted text (with its hash, an extension). */
export function presentSources(runId: string, sources: SourceSummary[]): SourcesResponse {
  return presentRunRows(runId, 'sources', sources, (s) => ({
    id: s.id,
    url: s.url,
    title: s.title,
    domain: s.domain,
    source_type: s.source_type,
    retrieved_at: iso(s.retrieved_at),
    content_sha256: s.content_sha256,
  }));
}

/** SPEC 4.6 / 2.3, with where each evidence span stands in its source's text (an extension). */
export function presentClaims(runId: string, claims: ClaimRow[]): ClaimsResponse {
  return presentRunRows(runId, 'claims', claims, (c) => ({
    id: c.id,
    research_run_id: runId,
    source_id: c.source_id,
    claim_text: c.claim_text,
    evidence_span: c.evidence_span,
    claim_type: c.claim_type,
    confidence: c.confidence,
    span_start: c.span_start,
    span_end: c.span_end,
  }));
}

/** SPEC 4.7 / 2.4. */
export function presentEvidence(runId: string, evidence: EvidenceRow[]): EvidenceResponse {
  return presentRunRows(runId, 'evidence', evidence, (e) => ({
    claim_id: e.claim_id,
    research_run_id: runId,
    evidence_type: e.evidence_type,
    ...evidenceScoresOf(e),
  }));
}

/** SPEC 4.8: `available` is true exactly when a plan is stored. */
export function presentPlan(run: VisibleRunRead): PlanResponse {
  const plan = run.plan ?? null;
  return { research_id: run.id, plan, available: plan !== null };
}

/**
 * SPEC 2.6 / 4.8. Without a report row (running or failed run) the answer is still a report: the fixed
 * notice in `summary` and defaults elsewhere. A stored report is read through reportBodySchema, so a
 * finding stored as a bare string becomes `{text, confidence: 0, source_ids: []}`.
 */
export function presentReport(run: VisibleRunRead, row: ReportRow | undefined): ReportResponse {
  const base = { research_id: run.id, query: run.query };
  const parsed = row ? reportBodySchema.safeParse(row.report) : undefined;
  if (!row || !parsed?.success) {
    return {
      ...base,
      summary: row ? '' : Details.reportNotReady,
      findings: [],
      disagreements: [],
      uncertainties: [],
      source_statistics: {},
      methodology: '',
      generated_at: row ? iso(row.generated_at) : '',
    };
  }
  const body = parsed.data;
  return {
    ...base,
    summary: body.summary,
    findings: body.findings.map((f) => ({ text: f.text, confidence: f.confidence, source_ids: f.source_ids })),
    disagreements: body.disagreements,
    uncertainties: body.uncertainties,
    source_statistics: body.source_statistics,
    methodology: body.methodology,
    generated_at: iso(row.generated_at),
  };
}
