import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { errorResponseSchema, runIdParamsSchema } from '../routes/common.schemas';
import { approveResponseSchema, editPlanBodySchema } from '../routes/plan-review.schemas';
import { planResponseSchema } from '../routes/research.schemas';

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(errorResponseSchema, description);

const REVIEW_ERRORS = {
  401: error('Missing, invalid, expired or revoked API key.'),
  403: error('Neither the owner nor an administrator: `You may only manage your own research runs.`'),
  404: error('Unknown, hidden or malformed research id: `Research run <id> not found`.'),
};

/** Plan review (an extension): a run created with `review_plan` waits in `awaiting_review` for these. */
export function registerPlanReviewRoutes(registry: OpenAPIRegistry, secured: RouteConfig['security']): void {
  registry.registerPath({
    method: 'put',
    path: '/v1/research/{id}/plan',
    summary: 'Edit the plan of a run awaiting review',
    description:
      "Replaces the queries (the plan's `search_queries` and `counter_evidence_queries` together) and the sub-questions of the plan of a run in state `awaiting_review`; a list left out stays as it is. A query the plan held keeps its dimension, a new one is searched as the user's. Owner or administrator, as cancel. The run's events get a `review` event `edited`.",
    tags: ['research'],
    security: secured,
    request: {
      params: runIdParamsSchema,
      body: { required: true, content: { 'application/json': { schema: editPlanBodySchema } } },
    },
    responses: {
      200: json(planResponseSchema, 'The plan as it now stands (as GET /v1/research/{id}/plan).'),
      ...REVIEW_ERRORS,
      400: error('Unparseable JSON.'),
      409: error(
        'The run does not await review: `Research run <id> is not awaiting review (state <state>); its plan can be changed only while it awaits review.`',
      ),
      413: error('Body larger than 1 MiB.'),
      422: error(
        'A field breaks its rule: `<field>: <reason>` (as `extra_queries`: at most 20, each 1 to 500 characters).',
      ),
    },
  });
  registry.registerPath({
    method: 'post',
    path: '/v1/research/{id}/approve',
    summary: 'Approve the plan of a run awaiting review',
    description:
      'The run in state `awaiting_review` goes on from its plan (as edited) with its next step, searching: its state moves on at once and its job is enqueued (by the reconciler when the queue is down). Owner or administrator, as cancel. The time the plan waited is not counted against the run’s duration budget.',
    tags: ['research'],
    security: secured,
    request: { params: runIdParamsSchema },
    responses: {
      202: json(approveResponseSchema, 'The run goes on.'),
      ...REVIEW_ERRORS,
      409: error(
        'The run does not await review: `Research run <id> is not awaiting review (state <state>); only a run awaiting review of its plan can be approved.`',
      ),
    },
  });
}
