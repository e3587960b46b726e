import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { errorResponseSchema, runIdParamsSchema } from '../routes/common.schemas';
import {
  runManifestResponseSchema,
  sourceContentParamsSchema,
  sourceContentResponseSchema,
} from '../routes/research-evidence.schemas';

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(errorResponseSchema, description);

/** The evidence of a run anyone can check: a source's exact text, and the run's manifest. */
export function registerEvidenceRoutes(registry: OpenAPIRegistry, secured: RouteConfig['security']): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/research/{id}/sources/{source_id}/content',
    summary: 'The exact text of a source and its SHA-256',
    description:
      "The text the source's claims were taken from. Its UTF-8 bytes hash to `content_sha256` (also listed by GET /v1/research/{id}/sources), and for each claim of the source, the text from code point `span_start` up to `span_end` is its `evidence_span`.",
    tags: ['research'],
    security: secured,
    request: { params: sourceContentParamsSchema },
    responses: {
      200: json(sourceContentResponseSchema, 'The text and its hash.'),
      401: error('Missing, invalid, expired or revoked API key.'),
      404: error(
        "Unknown, hidden or malformed research id (`Research run <id> not found`), or a source id that is not one of the run's (`Source <source_id> not found in research run <id>`).",
      ),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/research/{id}/manifest',
    summary: 'What it takes to audit or repeat a run',
    description:
      'Service version, configuration without secrets (an allow-list: no keys, no URLs), depth budgets with what the run used of each, the engine (and model) of every step per round, LLM fallbacks, the queries of every round, and every URL tried with its time, outcome, reason and the hash of the text kept.',
    tags: ['research'],
    security: secured,
    request: { params: runIdParamsSchema },
    responses: {
      200: json(runManifestResponseSchema, 'The manifest of the run.'),
      401: error('Missing, invalid, expired or revoked API key.'),
      404: error('Unknown, hidden or malformed research id: `Research run <id> not found`.'),
    },
  });
}
