import type { PipelineSteps } from '../steps';
import { analyzeStep } from './analyze.step';
import { compareStep } from './compare.step';
import { fetchStep } from './fetch.step';
import { planStep } from './plan.step';
import { searchStep } from './search.step';
import { synthesizeStep } from './synthesize.step';

/** The step registry: the module the orchestrator runs for each step of core's PIPELINE_STEPS. */
export const RESEARCH_STEPS: PipelineSteps = {
  plan: planStep,
  search: searchStep,
  fetch: fetchStep,
  analyze: analyzeStep,
  compare: compareStep,
  synthesize: synthesizeStep,
};

export { analyzeStep, compareStep, fetchStep, planStep, searchStep, synthesizeStep };
