import {
  createPause,
  evidenceScoresOf,
  LlmFailure,
  type EvidenceDraft,
  type LlmCallContext,
  type LlmClient,
  type Plan,
  type ReportBody,
  type SourceControls,
} from '@research/core';
import type { EvidenceGraph } from '../compare/evidence-graph';
import type { RunNote } from '../notes';
import { findGaps } from '../rounds/gap-analysis';
import { llmReport } from './llm-report';
import { rankFindings } from './rank-findings';
import { buildReport } from './report-builder';

/** Stored evidence rows as the report builder reads them. */
export function evidenceDraftsOf(
  rows: ReadonlyArray<Omit<EvidenceDraft, 'evidence_type'> & { evidence_type: string }>,
): EvidenceDraft[] {
  return rows.map((e) => ({
    claim_id: e.claim_id,
    evidence_type: e.evidence_type === 'primary_report' ? 'primary_report' : 'secondary_report',
    ...evidenceScoresOf(e),
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
  /** The run's notes so far (read, never changed). */
  notes: readonly RunNote[];
  generatedAt: Date;
  /** Only a final report is worded by the LLM; interim reviews stay extractive and leave no note. */
  final: boolean;
  /** The run's source controls, named in the methodology. */
  sourceControls?: SourceControls | null;
}

export interface SynthesizedReport {
  body: ReportBody;
  /** What writing the report added to the run's notes (which writer, and an LLM failure). */
  notes: RunNote[];
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
): Promise<SynthesizedReport> {
  const { graph, round } = input;
  const pause = createPause();
  const gaps = input.plan ? findGaps(input.plan, input.query, graph) : null;
  // Reading the gaps of thousands of claims takes tens of milliseconds: the event loop gets a turn before ranking.
  await pause();
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
    sourceControls: input.sourceControls ?? null,
  };
  const ranked = await rankFindings(base);
  const extractive = (added: RunNote[]): SynthesizedReport => ({
    body: buildReport({ ...base, notes: [...input.notes, ...added] }, ranked),
    notes: added,
  });
  if (!input.final) return extractive([]);
  const extractiveWriter: RunNote = { kind: 'engine', step: 'synthesize', round, mode: 'extractive' };
  if (!llm || ranked.length === 0) return extractive([extractiveWriter]);
  const draft = buildReport({ ...base, notes: input.notes }, ranked);
  try {
    const written = await llmReport(llm, ctx, {
      query: input.query,
      language: input.language,
      ranked,
      base: draft,
      answerSpan: ranked.answer?.span ?? null,
    });
    const added: RunNote[] = [{ kind: 'engine', step: 'synthesize', round, mode: 'llm' }];
    const body = buildReport({ ...base, notes: [...input.notes, ...added] }, ranked);
    return { body: { ...body, summary: written.summary, findings: written.findings }, notes: added };
  } catch (error) {
    if (ctx.signal.aborted || !(error instanceof LlmFailure)) throw error;
    ctx.logger?.warn('LLM report writing failed; using the extractive report', { reason: error.message });
    return extractive([
      { kind: 'fallback', step: 'synthesize', round, reason: error.kind, count: 1 },
      extractiveWriter,
    ]);
  }
}
