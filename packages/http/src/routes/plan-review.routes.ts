import type { Request, Response } from 'express';
import { approveRunPlan, editRunPlan } from '@research/runs';
import type { AppContext } from '../context';
import { presentPlan } from '../presenters/research.presenter';
import { scopeOf } from '../request-scope';
import { parseBody } from '../validation';
import { editPlanBodySchema, type ApproveResponse } from './plan-review.schemas';

/** PUT /v1/research/{id}/plan (after the key check): replaces a reviewed plan's queries and sub-questions. */
export function editPlanHandler(ctx: AppContext) {
  return async (req: Request<{ id: string }>, res: Response): Promise<void> => {
    const input = parseBody(editPlanBodySchema, req.body, { required: true });
    const run = await editRunPlan(ctx, scopeOf(res), req.params.id, input);
    res.json(presentPlan(run));
  };
}

/** POST /v1/research/{id}/approve (after the key check): the run goes on from its reviewed plan. */
export function approvePlanHandler(ctx: AppContext) {
  return async (req: Request<{ id: string }>, res: Response): Promise<void> => {
    const { research_id, state } = await approveRunPlan(ctx, scopeOf(res), req.params.id);
    res.status(202).json({ research_id, status: 'approved', state } satisfies ApproveResponse);
  };
}
