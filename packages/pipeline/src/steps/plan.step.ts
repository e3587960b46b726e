import type { Plan } from '@research/core';
import { planResearch, userQueries } from '@research/engine';
import type { RunSnapshot, StepContext } from '../steps';

/** What planning reads: a run's question, or one asked without a run (POST /research/planner). */
export interface PlanQuestion {
  query: string;
  language: string;
  extraQueries: readonly string[];
  /** Dates in the plan are read relative to it (the run's creation). */
  referenceDate: Date;
}

/** Plans a question: with the LLM, or extractively without one or when it fails (the events say which). */
export async function planQuestion(question: PlanQuestion, ctx: Omit<StepContext, 'run'>): Promise<Plan> {
  const result = await planResearch(ctx.services.llm, ctx, question);
  if (result.fallback) {
    ctx.logger.warn('LLM planning failed; using the extractive planner', { reason: result.fallbackReason });
    ctx.record({ kind: 'fallback', step: 'plan', round: ctx.round, reason: result.fallback, count: 1 });
  }
  ctx.record({ kind: 'engine', step: 'plan', round: ctx.round, mode: result.mode });
  return result.plan;
}

/** Plans the run: with the LLM, or extractively without one or when it fails (the report says so). */
export function planStep(_snapshot: RunSnapshot, ctx: StepContext): Promise<Plan> {
  return planQuestion(
    {
      query: ctx.run.query,
      language: ctx.run.language,
      extraQueries: userQueries(ctx.run.extra_queries),
      referenceDate: ctx.run.created_at,
    },
    ctx,
  );
}
