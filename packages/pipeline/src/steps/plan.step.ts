import type { Plan } from '@research/core';
import { planResearch, userQueries } from '@research/engine';
import type { RunSnapshot, StepContext } from '../steps';

/** Plans the run: with the LLM, or extractively without one or when it fails (the report says so). */
export async function planStep(_snapshot: RunSnapshot, ctx: StepContext): Promise<Plan> {
  const result = await planResearch(ctx.services.llm, ctx, {
    query: ctx.run.query,
    language: ctx.run.language,
    extraQueries: userQueries(ctx.run.extra_queries),
    referenceDate: ctx.run.created_at,
  });
  if (result.fallback) {
    ctx.logger.warn('LLM planning failed; using the extractive planner', { reason: result.fallbackReason });
    ctx.record({ kind: 'fallback', step: 'plan', round: ctx.round, reason: result.fallback, count: 1 });
  }
  ctx.record({ kind: 'engine', step: 'plan', round: ctx.round, mode: result.mode });
  return result.plan;
}
