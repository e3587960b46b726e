import { STEP_STATES, type RunState } from '@research/core';
import { SNAPSHOT_PARTS } from '../step-commit';
import type { AnyStepModule } from '../steps';
import { analyzeModule, analyzeStep } from './analyze.step';
import { compareModule, compareStep } from './compare.step';
import { fetchModule, fetchStep } from './fetch.step';
import { planModule, planStep } from './plan.step';
import { searchModule, searchStep } from './search.step';
import { synthesizeModule, synthesizeStep } from './synthesize.step';

/** Why a list of step modules cannot be the pipeline's (none: it can). */
export function registryProblems(modules: readonly AnyStepModule[]): string[] {
  const problems: string[] = [];
  const named = new Map<string, number>();
  for (const m of modules) named.set(m.name, (named.get(m.name) ?? 0) + 1);
  for (const [name, count] of named) if (count > 1) problems.push(`${count} steps are named "${name}"`);
  for (const m of modules) {
    if (typeof m.compute !== 'function' || typeof m.records !== 'function') {
      problems.push(`step "${m.name}" has no handler (compute and records)`);
    }
    const unknown = m.reads.filter((part) => !SNAPSHOT_PARTS.includes(part));
    if (unknown.length > 0) problems.push(`step "${m.name}" reads ${unknown.join(', ')}, which no run holds`);
    if (!STEP_STATES.includes(m.state)) problems.push(`step "${m.name}" runs in "${m.state}", not a step state`);
  }
  // Core's STEP_STATES are the API's (CONTRACT 4) and the web page's: each is one step's, in their order.
  for (const state of STEP_STATES) {
    const steps = modules.filter((m) => m.state === state).map((m) => `"${m.name}"`);
    if (steps.length === 0) problems.push(`no step runs in state "${state}"`);
    if (steps.length > 1) problems.push(`steps ${steps.join(' and ')} both run in state "${state}"`);
  }
  const order = modules.map((m) => m.state).filter((s) => STEP_STATES.includes(s));
  if (problems.length === 0 && order.some((state, i) => state !== STEP_STATES[i])) {
    problems.push(`the steps' states (${order.join(', ')}) are not in the order of core's STEP_STATES`);
  }
  return problems;
}

/**
 * Checks that `modules` can be the pipeline's steps, and returns them: one module per name, each with its
 * handler, reading parts a run has, one per state of core's STEP_STATES in their order. Throws otherwise, so
 * a process with a broken registry never starts.
 */
export function registerSteps<const M extends readonly AnyStepModule[]>(modules: M): M {
  const problems = registryProblems(modules);
  if (problems.length > 0) throw new Error(`The pipeline's step registry is refused: ${problems.join('; ')}.`);
  return modules;
}

/**
 * The step registry: the pipeline's steps in the order a round takes them, the one place that order lives.
 * A new step is its module (steps/<name>.step.ts) and one line here; the step names, their states and what
 * the runner reads and writes for each derive from this list.
 */
export const RESEARCH_STEPS = registerSteps([
  planModule,
  searchModule,
  fetchModule,
  analyzeModule,
  compareModule,
  synthesizeModule,
]);

type RegisteredStep = (typeof RESEARCH_STEPS)[number];

/** A step of the pipeline, by name. */
export type PipelineStep = RegisteredStep['name'];

/** The registered module of step `S`. */
export type StepModuleOf<S extends PipelineStep> = Extract<RegisteredStep, { name: S }>;

/** The pipeline's steps, in order. */
export const PIPELINE_STEPS: readonly PipelineStep[] = Object.freeze(RESEARCH_STEPS.map((m) => m.name));

/** The state a run is in while each step works. */
export const STEP_STATE: Readonly<Record<PipelineStep, RunState>> = Object.freeze(
  Object.fromEntries(RESEARCH_STEPS.map((m) => [m.name, m.state])) as Record<PipelineStep, RunState>,
);

/** Each step's work by name (a runner's `steps` option replaces single ones: tests script a step this way). */
export type PipelineSteps = { [S in PipelineStep]: StepModuleOf<S>['compute'] };

/** The parts of the run step `S` declares it reads. */
export type StepReads<S extends PipelineStep> = StepModuleOf<S>['reads'][number];

/** The registered module of step `name`. */
export function stepModule<S extends PipelineStep>(name: S): StepModuleOf<S> {
  return RESEARCH_STEPS.find((m) => m.name === name) as StepModuleOf<S>;
}

export { analyzeStep, compareStep, fetchStep, planStep, searchStep, synthesizeStep };
