export * from './steps';
export * from './checkpoint';
export * from './orchestrator';
export { runBudgetOf, type BudgetedResource, type RunBudget } from './budget';
export {
  PIPELINE_STEPS,
  RESEARCH_STEPS,
  STEP_STATE,
  registerSteps,
  registryProblems,
  stepModule,
  type PipelineStep,
  type PipelineSteps,
  type StepModuleOf,
  type StepReads,
  analyzeStep,
  compareStep,
  fetchStep,
  planStep,
  searchStep,
  synthesizeStep,
} from './steps/index';
export { claimGraphRows, writeComparison, type ClaimGraphRows } from './steps/compare.step';
export { nextCandidates, queryRoles, rankPool, type Candidate, type PoolHit, type QueryRole } from './steps/select';
export { scoreClaims } from './steps/score';
export type { PlanQuestion } from './steps/plan.step';
export {
  planWithoutRun,
  runStepOnRun,
  type OutsideLoop,
  type StepOnRunOptions,
  type StepOnRunResult,
  type StepOutput,
} from './step-on-run';
export { readSnapshot } from './step-commit';
// The rows a step stores and their one writer per table: the mounted routes store through them too.
export * from './step-records';
// The events steps record are part of what running a step returns (runStepOnRun), so they are named here.
export type { RunNote } from '@research/engine';
export { readImage, type ImageClaim, type ImageReading } from './image-claims';
export { stopReport, type StopReport } from './stop-report';
export { type ProgressEvent } from './progress';
export * from './webhook-delivery';
export { awaitsReview, reviewEvent, stateAfterReview, type ReviewAction } from './plan-review';
export { expireOverdueReviews, reviewExpired, type ReviewExpiry } from './review-expiry';
export {
  createCollectionLibrary,
  type CollectionLibrary,
  type CollectionDocumentText,
  type CollectionHit,
} from './collection-library';
