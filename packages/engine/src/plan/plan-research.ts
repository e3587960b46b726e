import {
  LlmFailure,
  planSchema,
  type LlmCallContext,
  type LlmClient,
  type LlmFailureKind,
  type Plan,
} from '@research/core';
import * as planPrompt from '../prompts/plan.v1';
import { asksForFact, extractivePlan } from './extractive-planner';
import { dedupeQueries, novelShare } from './queries';

export interface PlanResearchInput {
  query: string;
  language: string;
  /** The user's extra search queries (blank ones already removed). */
  extraQueries: readonly string[];
  /** Time sensitivity and dates are judged from here (the run's creation time). */
  referenceDate: Date;
}

export interface PlanResearchResult {
  plan: Plan;
  /** Which planner wrote the plan. */
  mode: 'llm' | 'extractive';
  /** Set when the LLM was asked and failed (the extractive plan was used instead). */
  fallback?: LlmFailureKind;
  /** The LLM failure's message, for the log (never shown to clients). */
  fallbackReason?: string;
}

/**
 * The planner: the LLM's plan validated against planSchema (the user's extra queries appended), or the
 * extractive plan without an LLM or when the LLM call fails. One code path for the pipeline's plan step
 * and `POST /research/planner`. Aborts and non-LLM errors propagate.
 */
export async function planResearch(
  llm: LlmClient | null,
  ctx: LlmCallContext,
  input: PlanResearchInput,
): Promise<PlanResearchResult> {
  const planner = {
    query: input.query,
    language: input.language,
    extraQueries: [...input.extraQueries],
    referenceDate: input.referenceDate,
  };
  const fallback = () => extractivePlan(planner);
  if (!llm) return { plan: fallback(), mode: 'extractive' };
  try {
    const answer = await llm.complete(ctx, {
      name: planPrompt.name,
      system: planPrompt.system,
      user: planPrompt.user({ query: input.query, language: input.language, extraQueries: input.extraQueries }),
      schema: planPrompt.schema,
      maxTokens: 1500,
    });
    // For a question after a fact, the model's plan keeps the extractive plan's rule (see asksForFact): its
    // queries that add no word to the question's (but the question itself) and its counter-evidence queries
    // are not sent.
    const fact = asksForFact(planner);
    const adds = (query: string) =>
      query.trim().toLowerCase() === input.query.trim().toLowerCase() || novelShare(query, input.query) > 0;
    const searchQueries = dedupeQueries([
      ...answer.search_queries.filter((q) => !fact || adds(q.query)),
      ...input.extraQueries.map((q) => ({ query: q.trim().slice(0, 300), dimension: 'user' })),
    ]);
    const plan = planSchema.parse({
      query: input.query,
      language: input.language,
      ...answer,
      search_queries: searchQueries,
      counter_evidence_queries: fact ? [] : answer.counter_evidence_queries,
      search_dimensions: [...new Set([...answer.search_dimensions, ...searchQueries.map((q) => q.dimension)])],
    });
    return { plan, mode: 'llm' };
  } catch (error) {
    if (ctx.signal.aborted || !(error instanceof LlmFailure)) throw error;
    return { plan: fallback(), mode: 'extractive', fallback: error.kind, fallbackReason: error.message };
  }
}
