import { planSchema, type Plan } from '@research/core';
import { planResearch, userQueries } from '@research/engine';
import { cleanJson } from '../step-records';
import { defineStep, type SnapshotOf, type StepContext, type StepRecords } from '../steps';
import { controlsOf } from './source-controls';

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
    ctx.note({ kind: 'fallback', step: 'plan', round: ctx.round, reason: result.fallback, count: 1 });
  }
  ctx.note({ kind: 'engine', step: 'plan', round: ctx.round, mode: result.mode });
  return result.plan;
}

/** Plans the run: with the LLM, or extractively without one or when it fails (the report says so). */
export function planStep(_snapshot: SnapshotOf<never>, ctx: StepContext): Promise<Plan> {
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

/** The plan as the run's stored plan (with the run's source controls) and its progress event. */
function planRecords(output: Plan, { ctx }: { ctx: StepContext }): StepRecords {
  const plan = planSchema.parse(output);
  const queries = plan.search_queries.map((q) => q.query);
  // The run's source controls are part of its strategy as GET /v1/research/{id}/plan shows it.
  const controls = controlsOf(ctx);
  const shown = controls ? { source_controls: controls } : {};
  const events = [{ type: 'plan', data: { queries, sub_questions: plan.sub_questions, rounds: ctx.rounds, ...shown } }];
  return { write: async () => undefined, plan: cleanJson({ ...plan, ...shown }), events };
}

/** Planning: once, in the first round, from the run's question alone. */
export const planModule = defineStep({
  name: 'plan',
  state: 'planning',
  reads: [],
  firstRoundOnly: true,
  compute: planStep,
  records: planRecords,
});
