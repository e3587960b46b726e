import type { Request, Response } from 'express';
import { estimateRun } from '@research/runs';
import type { AppContext } from '../context';
import { presentEstimate } from '../presenters/run-cost.presenter';
import { parseBody } from '../validation';
import { estimateBodySchema, type EstimateResponse } from './estimate.schemas';

/**
 * POST /v1/research/estimate (after the key is checked): what a run of the body's depth is expected to
 * spend, validated as POST /v1/research validates its body; no run is created and no quota is taken.
 */
export function estimateHandler(ctx: AppContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const input = parseBody(estimateBodySchema, req.body, { required: true });
    res.json(presentEstimate(await estimateRun(ctx, input)) satisfies EstimateResponse);
  };
}
