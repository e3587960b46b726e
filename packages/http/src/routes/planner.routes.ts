import type { Router } from 'express';
import { AppError, Details, isDepth } from '@research/core';
import type { AppContext } from '../context';
import { requestSignal } from '../request-signal';
import { scopeOf } from '../request-scope';
import { planQuestion } from '@research/runs';
import { parseBody } from '../validation';
import { plannerBodySchema, type PlannerResponse } from './planner.schemas';

/** `POST /research/planner` on the `/research` router (key check and body parsing mounted there). */
export function addPlannerRoutes(router: Router, ctx: AppContext): void {
  const { tools } = ctx;
  router.post('/planner', async (req, res) => {
    const input = parseBody(plannerBodySchema, req.body, { required: true });
    if (!isDepth(input.depth)) throw new AppError('bad_request', Details.invalidDepth(input.depth));
    const result = await planQuestion({
      tools,
      metrics: ctx.metrics,
      scope: scopeOf(res),
      input: { ...input, depth: input.depth },
      signal: requestSignal(res),
    });
    res.json({
      query: input.query,
      depth: input.depth,
      language: input.language,
      plan: result.plan,
      engine: result.mode,
      fallbacks: result.fallback ? [{ step: 'plan', reason: result.fallback, count: 1 }] : [],
    } satisfies PlannerResponse);
  });
}
