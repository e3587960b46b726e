import type { Depth, LlmFailureKind, Plan } from '@research/core';
import type { Metrics } from '@research/observability';
import { planWithoutRun } from '@research/pipeline';
import type { RequestScope } from './scope';
import type { ResearchTools } from './research-tools';

/** What POST /research/planner answers about a plan: the plan, its planner, and an LLM fallback. */
export interface PlannedQuestion {
  plan: Plan;
  mode: 'llm' | 'extractive';
  fallback?: LlmFailureKind;
}

/**
 * The plan the pipeline's plan step would make for a question (LLM when configured, else extractive;
 * the same function), without creating a run. The depth's budget bounds the LLM call.
 */
export async function planQuestion(options: {
  tools: ResearchTools;
  metrics: Metrics;
  scope: RequestScope;
  input: { query: string; depth: Depth; language: string; extra_queries: string[] };
  signal: AbortSignal;
}): Promise<PlannedQuestion> {
  const { input } = options;
  const { plan, events } = await planWithoutRun(
    { query: input.query, language: input.language, extraQueries: input.extra_queries, referenceDate: new Date() },
    input.depth,
    {
      services: options.tools.researchServices(),
      logger: options.scope.logger,
      metrics: options.metrics,
      signal: options.signal,
    },
  );
  const engine = events.find((e) => e.kind === 'engine');
  const fallback = events.find((e) => e.kind === 'fallback');
  return {
    plan,
    mode: engine?.kind === 'engine' && engine.mode === 'llm' ? 'llm' : 'extractive',
    ...(fallback?.kind === 'fallback' ? { fallback: fallback.reason as LlmFailureKind } : {}),
  };
}
