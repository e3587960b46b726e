import { AppError, planSchema, type Plan } from '@research/core';
import {
  appendRunEvents,
  findRunById,
  findRunForEdit,
  replaceReviewedPlan,
  resumeReviewedRun,
  type RunRow,
} from '@research/database';
import { reviewedQueries, revisePlan, type PlanRevision } from '@research/engine';
import { awaitsReview, reviewEvent, stateAfterReview } from '@research/pipeline';
import type { RunsContext } from './context';
import { enqueueRun } from './enqueue-run';
import { getVisibleRun } from './research-reads.service';
import { managedRun } from './run-cancel.service';
import type { RequestScope } from './scope';

// Plan review (an extension): a run created with review_plan waits in `awaiting_review` once its plan is
// stored. Its owner (or an administrator) may replace the plan's queries and sub-questions, approve it (the
// run goes on from the plan as it then stands) or cancel it (POST …/cancel, as any running run).

/** 409 for a review action on a run that does not await review. */
function notAwaitingReview(id: string, state: string, what: string): AppError {
  return new AppError('conflict', `Research run ${id} is not awaiting review (state ${state}); ${what}`);
}

const EDIT_REFUSED = 'its plan can be changed only while it awaits review.';
const APPROVAL_REFUSED = 'only a run awaiting review of its plan can be approved.';

/** The run's stored plan (a run awaits review only once its plan is stored). */
function storedPlan(run: RunRow): Plan {
  const plan = planSchema.safeParse(run.plan);
  if (!plan.success) throw new Error(`Research run ${run.id} awaits review without a readable plan`);
  return plan.data;
}

/**
 * PUT /v1/research/{id}/plan: replaces the queries and sub-questions of the plan of a run awaiting review
 * (a list left out stays as it is), with a `review` event `edited` naming them. 404, 403 as cancel; 409 when
 * the run does not await review. Returns the run with its new plan.
 */
export async function editRunPlan(
  ctx: Pick<RunsContext, 'db'>,
  scope: RequestScope,
  id: string,
  revision: PlanRevision,
): Promise<Awaited<ReturnType<typeof getVisibleRun>>> {
  const run = await managedRun(ctx, scope, id);
  if (!awaitsReview(run)) throw notAwaitingReview(id, run.state, EDIT_REFUSED);
  await ctx.db.transaction().execute(async (trx) => {
    // The run's row lock: an approval, a cancel, an expiry or another edit of the run waits for this edit, or came
    // first; the plan is revised as it stands under the lock, so a concurrent edit's lists are not lost.
    const locked = await findRunForEdit(trx, id, { lock: true });
    if (!locked || !awaitsReview(locked)) throw notAwaitingReview(id, locked?.state ?? run.state, EDIT_REFUSED);
    const current = (await findRunById(trx, id)) ?? run;
    const plan = revisePlan(storedPlan(current), revision);
    await replaceReviewedPlan(trx, id, { ...(current.plan ?? {}), ...plan });
    const shown = { queries: reviewedQueries(plan), sub_questions: plan.sub_questions };
    await appendRunEvents(trx, id, [reviewEvent('edited', shown)]);
  });
  scope.logger.info('plan of a research run edited in review', { research_id: id });
  return getVisibleRun(ctx.db, id);
}

/**
 * POST /v1/research/{id}/approve: the run awaiting review goes on from its plan (as edited) with its next
 * step, its job enqueued after the commit (by the reconciler when the queue is down). 404, 403 as cancel;
 * 409 when the run does not await review. Returns the state it moved to.
 */
export async function approveRunPlan(
  ctx: Pick<RunsContext, 'db' | 'queue' | 'onEnqueueFailed'>,
  scope: RequestScope,
  id: string,
): Promise<{ research_id: string; state: string }> {
  const run = await managedRun(ctx, scope, id);
  if (!awaitsReview(run)) throw notAwaitingReview(id, run.state, APPROVAL_REFUSED);
  const state = stateAfterReview(run);
  await ctx.db.transaction().execute(async (trx) => {
    const locked = await findRunForEdit(trx, id, { lock: true });
    if (!locked || !awaitsReview(locked)) throw notAwaitingReview(id, locked?.state ?? run.state, APPROVAL_REFUSED);
    // The event before the state change: the stream shows the approval, then the run's next state.
    await appendRunEvents(trx, id, [reviewEvent('approved')]);
    await resumeReviewedRun(trx, id, state);
  });
  scope.logger.info('plan of a research run approved', { research_id: id, state });
  await enqueueRun(ctx, scope, id);
  return { research_id: id, state };
}
