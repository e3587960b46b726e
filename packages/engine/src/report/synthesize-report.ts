import type { EvidenceDraft, Plan, ReportBody } from '@research/core';
import type { EvidenceGraph } from '../compare/evidence-graph';
import { LlmFailure, type LlmCallContext, type LlmClient } from '../llm/llm-client';
import { note } from '../notes';
import { findGaps } from '../rounds/gap-analysis';
import { llmReport } from './llm-report';
import { buildReport, rankFindings } from './report-builder';

/** Stored evidence rows as the report builder reads them. */
export function evidenceDraftsOf(
  rows: ReadonlyArray<Omit<EvidenceDraft, 'evidence_type'> & { evidence_type: string }>,
): EvidenceDraft[] {
  return rows.map((e) => ({
    claim_id: e.claim_id,
    evidence_type: e.evidence_type === 'primary_report' ? 'primary_report' : 'secondary_report',
    source_independence_score: e.source_independence_score,
    primary_source_proximity: e.primary_source_proximity,
    cross_source_support: e.cross_source_support,
    contradiction_level: e.contradiction_level,
    evidence_directness: e.evidence_directness,
    date_relevance_score: e.date_relevance_score,
  }));
}

export interface SynthesizeReportInput {
  query: string;
  language: string;
  plan: Plan | null;
  graph: EvidenceGraph;
  evidence: EvidenceDraft[];
  round: number;
  rounds: number;
  /** Search queries sent over the run (usage.search_queries). */
  queriesSent: number;
  /** The run's notes; the engine adds which writer produced the report. */
  notes: string[];
  generatedAt: Date;
  /** Only a final report is worded by the LLM; interim reviews stay extractive and leave no note. */
  final: boolean;
}

/**
 * The report of a run's current evidence (SPEC 2.6): the extractive report builder decides findings,
 * disagreements, uncertainties and statistics; with an LLM, a final report's summary and findings are
 * worded by it, falling back to the extractive wording when it fails. The pipeline's synthesize step and
 * `POST /research/{id}/synthesis` both call this.
 */
export async function synthesizeReport(
  llm: LlmClient | null,
  ctx: LlmCallContext & { logger?: { warn(message: string, meta?: object): unknown } },
  input: SynthesizeReportInput,
): Promise<ReportBody> {
  const { graph, notes, round } = input;
  const gaps = input.plan ? findGaps(input.plan, input.query, graph) : null;
  const base = {
    query: input.query,
    language: input.language,
    plan: input.plan,
    graph,
    evidence: input.evidence,
    gaps,
    rounds: input.rounds,
    queriesSent: input.queriesSent,
    generatedAt: input.generatedAt,
  };
  const ranked = rankFindings(base);
  if (!input.final) return buildReport({ ...base, notes }, ranked);
  if (!llm || ranked.length === 0) {
    notes.push(note.engine('synthesize', round, 'extractive'));
    return buildReport({ ...base, notes }, ranked);
  }
  const draft = buildReport({ ...base, notes }, ranked);
  try {
    const written = await llmReport(llm, ctx, { query: input.query, language: input.language, ranked, base: draft });
    notes.push(note.engine('synthesize', round, 'llm'));
    const body = buildReport({ ...base, notes }, ranked);
    return { ...body, summary: written.summary, findings: written.findings };
  } catch (error) {
    if (ctx.signal.aborted || !(error instanceof LlmFailure)) throw error;
    ctx.logger?.warn('LLM report writing failed; using the extractive report', { reason: error.message });
    notes.push(note.fallback('synthesize', round, error.kind), note.engine('synthesize', round, 'extractive'));
    return buildReport({ ...base, notes }, ranked);
  }
}
