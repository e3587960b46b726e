import { MAX_CLAIMS_PER_RUN, type ClaimDraft } from '@research/core';
import { analyzeSources, planTerms } from '@research/engine';
import type { ClaimRow } from '@research/database';
import { claimRows, writeClaims } from '../step-records';
import { defineStep, type SnapshotOf, type StepContext, type StepRecords, type StepRecordsInput } from '../steps';

/**
 * Extracts grounded claims from the sources the round added: with the LLM while the run's
 * max_llm_requests allows (one request is kept back for the report), extractively otherwise.
 */
export async function analyzeStep(
  snapshot: SnapshotOf<'plan' | 'sources' | 'claims'>,
  ctx: StepContext,
): Promise<ClaimDraft[]> {
  const { llm } = ctx.services;
  const reportReserve = llm ? 1 : 0;
  // A run holding MAX_CLAIMS_PER_RUN claims keeps no more (the orchestrator cuts at the caps): spend
  // no LLM requests on it.
  const sources =
    snapshot.claims.length >= MAX_CLAIMS_PER_RUN ? [] : snapshot.sources.filter((s) => s.round === ctx.round);
  const result = await analyzeSources(llm, ctx, {
    runId: ctx.run.id,
    question: ctx.run.query,
    subQuestions: snapshot.plan?.sub_questions ?? [],
    language: ctx.run.language,
    terms: planTerms(snapshot.plan, ctx.run.query),
    sources,
    llmAllowance: Math.max(0, ctx.budget.remaining('llm_requests') - reportReserve),
  });
  if (!llm) {
    ctx.note({ kind: 'engine', step: 'analyze', round: ctx.round, mode: 'extractive' });
    return result.claims;
  }
  for (const [reason, count] of result.fallbacks)
    ctx.note({ kind: 'fallback', step: 'analyze', round: ctx.round, reason, count });
  if (result.ungrounded > 0) ctx.note({ kind: 'ungrounded', round: ctx.round, count: result.ungrounded });
  if (sources.length > 0) ctx.note({ kind: 'engine', step: 'analyze', round: ctx.round, mode: result.mode });
  return result.claims;
}

/** A progress event per source that gave claims, with how many. */
function claimEvents(round: number, rows: readonly Pick<ClaimRow, 'source_id'>[]) {
  const counts = new Map<string, number>();
  for (const c of rows) counts.set(c.source_id, (counts.get(c.source_id) ?? 0) + 1);
  return [...counts].map(([source_id, count]) => ({ type: 'claims', data: { round, source_id, count } }));
}

/** The claims grounded in their sources, within the caps of a source and of the run. */
function analyzeRecords(drafts: ClaimDraft[], { ctx, snapshot }: StepRecordsInput<'sources' | 'claims'>): StepRecords {
  const { rows } = claimRows(ctx.run, ctx.round, drafts, snapshot);
  return { write: (trx) => writeClaims(trx, rows), events: claimEvents(ctx.round, rows) };
}

/** Analyzing: claims from the sources the round read (their text), beside the run's claims so far. */
export const analyzeModule = defineStep({
  name: 'analyze',
  state: 'analyzing',
  reads: ['plan', 'sources', 'claims'],
  compute: analyzeStep,
  records: analyzeRecords,
});
