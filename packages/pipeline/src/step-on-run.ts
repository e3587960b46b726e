import type { Plan } from '@research/core';
import type { RunRow } from '@research/database';
import type { RunNote } from '@research/engine';
import type { Logger, Metrics } from '@research/observability';
import { runBudgetOf, type RunBudget } from './budget';
import { readCheckpoint } from './checkpoint';
import { deferMetrics } from './step-metrics';
import { stepModule, type PipelineStep, type PipelineSteps, type StepReads } from './steps/index';
import { planQuestion, type PlanQuestion } from './steps/plan.step';
import type { ResearchServices, RunSnapshot, SnapshotOf, SnapshotPart, StepContext } from './steps';

// The mounted route groups (/research/{id}/claims, /evidence, /synthesis, /planner) run the pipeline's
// steps on a request, outside the job loop: same step modules, same budget object, same events. What they
// store goes through the same row writers (step-records.ts), in the route's own transaction.

/** What a step run by a request uses of the process. */
export interface OutsideLoop {
  services: ResearchServices;
  logger: Logger;
  /** The pipeline's metrics describe runs: what a step counts on a request is dropped, never published. */
  metrics: Metrics;
  signal: AbortSignal;
}

export interface StepOnRunOptions<S extends PipelineStep> extends OutsideLoop {
  run: RunRow;
  /** What the step reads of the run: the parts it declares (its `reads`; readSnapshot loads them), no others. */
  snapshot: SnapshotOf<StepReads<S>>;
  /** The round the step works in; default: the run's last. */
  round?: number;
  /** Events the step sees after the run's recorded ones (a stop the report must mention). */
  events?: readonly RunNote[];
}

/** What a registered step returns. */
export type StepOutput<S extends PipelineStep> = Awaited<ReturnType<PipelineSteps[S]>>;

export interface StepOnRunResult<S extends PipelineStep> {
  output: StepOutput<S>;
  /** The events this call recorded (which engine ran, LLM fallbacks, claims dropped as ungrounded). */
  events: RunNote[];
}

const LLM_COUNTERS = new Set(['llm_requests', 'llm_tokens_input', 'llm_tokens_output']);

/**
 * The run's budget for one request: its stored limits and usage, with fresh LLM counters. A request on an
 * ended run is not the run's own work (its usage is not stored), so what the run's LLM calls used neither
 * refuses it nor is added to.
 */
function requestBudgetOf(run: Pick<RunRow, 'depth' | 'budget' | 'usage'>): RunBudget {
  const usage = Object.fromEntries(Object.entries(run.usage ?? {}).filter(([key]) => !LLM_COUNTERS.has(key)));
  return runBudgetOf({ depth: run.depth, budget: run.budget, usage });
}

function contextOutsideLoop(
  options: OutsideLoop,
  budget: RunBudget,
  position: { round: number; rounds: number },
  earlier: readonly RunNote[],
): { ctx: Omit<StepContext, 'run'>; recorded: RunNote[] } {
  const recorded: RunNote[] = [];
  const events = [...earlier];
  const ctx: Omit<StepContext, 'run'> = {
    budget,
    round: position.round,
    rounds: position.rounds,
    signal: options.signal,
    logger: options.logger,
    metrics: deferMetrics(options.metrics).metrics,
    services: options.services,
    usage: budget.usage,
    notes: events,
    note(note) {
      events.push(note);
      recorded.push(note);
    },
    // A step on one request is not the run's own work: its progress is not the run's.
    progress: () => undefined,
  };
  return { ctx, recorded };
}

/** The parts `reads` names of a snapshot, and no others. */
function partsOf(snapshot: Partial<RunSnapshot>, reads: readonly SnapshotPart[]): Partial<RunSnapshot> {
  return Object.fromEntries(reads.map((part) => [part, snapshot[part]]));
}

/** True for the events a step records about its own engine, which a new call of that step replaces. */
function isEngineEventOf(step: PipelineStep, event: RunNote): boolean {
  return (event.kind === 'engine' || event.kind === 'fallback') && event.step === step;
}

/**
 * Runs one registered step on a run outside the job loop, under the run's stored budget (fresh LLM
 * counters) and with the run's recorded events, except the engine events of that step, which this call's
 * replace. Nothing is stored: the caller writes the output with the row writers of step-records.ts.
 */
export async function runStepOnRun<S extends PipelineStep>(
  step: S,
  options: StepOnRunOptions<S>,
): Promise<StepOnRunResult<S>> {
  const budget = requestBudgetOf(options.run);
  const checkpoint = readCheckpoint(options.run.checkpoint, budget.rounds);
  const earlier = [
    ...(checkpoint.notes ?? []).filter((event) => !isEngineEventOf(step, event)),
    ...(options.events ?? []),
  ];
  const position = { round: options.round ?? checkpoint.rounds, rounds: checkpoint.rounds };
  const { ctx, recorded } = contextOutsideLoop(options, budget, position, earlier);
  const module = stepModule(step);
  const read = partsOf(options.snapshot, module.reads);
  const output = (await module.compute(read as RunSnapshot, { ...ctx, run: options.run })) as StepOutput<S>;
  return { output, events: recorded };
}

/**
 * The plan the plan step makes for a question, without a run (POST /research/planner): the same planner
 * under the budget of `depth`, with the events it recorded (which engine planned, an LLM fallback).
 */
export async function planWithoutRun(
  question: PlanQuestion,
  depth: string,
  options: OutsideLoop,
): Promise<{ plan: Plan; events: RunNote[] }> {
  const budget = runBudgetOf({ depth, budget: null });
  const { ctx, recorded } = contextOutsideLoop(options, budget, { round: 1, rounds: budget.rounds }, []);
  const plan = await planQuestion(question, ctx);
  return { plan, events: recorded };
}
