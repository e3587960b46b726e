import { MAX_CLAIMS_PER_RUN, type ClaimDraft } from '@research/core';
import { analyzeSources, planTerms } from '@research/engine';
import type { RunSnapshot, StepContext } from '../steps';

/**
 * Extracts grounded claims from the sources the round added: with the LLM while the run's
 * max_llm_requests allows (one request is kept back for the report), extractively otherwise.
 */
export async function analyzeStep(snapshot: RunSnapshot, ctx: StepContext): Promise<ClaimDraft[]> {
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
    ctx.record({ kind: 'engine', step: 'analyze', round: ctx.round, mode: 'extractive' });
    return result.claims;
  }
  for (const [reason, count] of result.fallbacks)
    ctx.record({ kind: 'fallback', step: 'analyze', round: ctx.round, reason, count });
  if (result.ungrounded > 0) ctx.record({ kind: 'ungrounded', round: ctx.round, count: result.ungrounded });
  if (sources.length > 0) ctx.record({ kind: 'engine', step: 'analyze', round: ctx.round, mode: result.mode });
  return result.claims;
}
