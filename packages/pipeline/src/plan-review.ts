import { REVIEW_STATE, type RunState } from '@research/core';
import { appendRunEvents, pauseRunForReview, type Database, type NewRunEvent, type RunRow } from '@research/database';
import { runBudgetOf } from './budget';
import { nextStep, readCheckpoint, type PipelineCheckpoint } from './checkpoint';
import { STEP_STATE } from './steps/index';

// Plan review (an extension): a run created with review_plan stops once its plan is committed, in state
// `awaiting_review`, with no job holding it. Approval moves it on to its next step's state and enqueues it;
// cancel or expiry end it with a stop report, as a cancel of a running run does.

/** What happened to a plan under review, as the run's `review` event tells it. */
export type ReviewAction = 'waiting' | 'edited' | 'approved' | 'expired';

/** The run's progress event of a review action. */
export function reviewEvent(action: ReviewAction, data: Record<string, unknown> = {}): NewRunEvent {
  return { type: 'review', data: { action, ...data } };
}

/** True while the run's plan waits for review: no worker may take a step of it. */
export function awaitsReview(run: Pick<RunRow, 'state'>): boolean {
  return run.state === REVIEW_STATE;
}

/**
 * True for the commit that stops the run for review: its checkpoint holds round 1's planning and nothing
 * after it (the plan's commit), of a run created with review_plan.
 */
export function pausesForReview(run: Pick<RunRow, 'review_plan'>, after: PipelineCheckpoint): boolean {
  return run.review_plan && after.round === 1 && after.done.length === 1 && after.done[0] === 'plan';
}

/** Stops the run for review, inside the plan's commit, with the event that says the plan waits. */
export async function pauseForReview(db: Database, runId: string): Promise<boolean> {
  if (!(await pauseRunForReview(db, runId))) return false;
  await appendRunEvents(db, runId, [reviewEvent('waiting')]);
  return true;
}

/** The state an approved run moves on to: its next step's. */
export function stateAfterReview(run: RunRow): RunState {
  const position = nextStep(readCheckpoint(run.checkpoint, runBudgetOf(run).rounds));
  return position ? STEP_STATE[position.step] : STEP_STATE.synthesize;
}
