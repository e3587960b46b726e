import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { errorResponseSchema } from '../routes/common.schemas';
import { estimateBodySchema, estimateResponseSchema } from '../routes/estimate.schemas';

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(errorResponseSchema, description);

/** What a run is expected to cost before it is asked (a run's own cost is in its status and manifest). */
export function registerRunCostRoutes(registry: OpenAPIRegistry, secured: RouteConfig['security']): void {
  registry.registerPath({
    method: 'post',
    path: '/v1/research/estimate',
    summary: 'What a run of a depth is expected to cost',
    description:
      "The medians of the LLM requests, tokens, price, search queries, pages and seconds of the service's last 50 completed runs of the depth (`based_on_runs` of them); without any, the most the depth's budget allows, with `based_on_runs` 0 and a `note`. The body is validated as the create body is; no run is created and no quota is taken.",
    tags: ['research'],
    security: secured,
    request: { body: { required: true, content: { 'application/json': { schema: estimateBodySchema } } } },
    responses: {
      200: json(estimateResponseSchema, 'The estimate.'),
      401: error('Missing, invalid, expired or revoked API key.'),
      413: error('Body larger than 1 MiB.'),
      422: error('A field breaks its rule: `<field>: <reason>`.'),
      400: error(
        "Unparseable JSON, or a depth other than quick/normal/deep: `Ungültige Tiefe '<depth>'. Gültig: 'quick', 'normal', 'deep'.`",
      ),
    },
  });
}
