import { DEPTH_BUDGETS, type Depth } from '@research/core';
import { planResearch, type PlanResearchResult } from '@research/engine';
import type { RequestScope } from '../request-scope';
import type { ResearchTools } from './research-tools';

/**
 * The plan the pipeline's plan step would make for a question (LLM when configured, else extractive;
 * the same function), without creating a run. The depth's budget bounds the LLM call.
 */
export async function planQuestion(
  tools: ResearchTools,
  scope: RequestScope,
  input: { query: string; depth: Depth; language: string; extra_queries: string[] },
  signal: AbortSignal,
): Promise<PlanResearchResult> {
  const result = await planResearch(
    tools.llm(),
    { usage: {}, budget: DEPTH_BUDGETS[input.depth], signal },
    { query: input.query, language: input.language, extraQueries: input.extra_queries, referenceDate: new Date() },
  );
  if (result.fallback) {
    scope.logger.warn('LLM planning failed; using the extractive planner', { reason: result.fallbackReason });
  }
  return result;
}
