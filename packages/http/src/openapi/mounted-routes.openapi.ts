import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { MAX_CLAIMS_PER_RUN, MAX_CLAIMS_PER_SOURCE } from '@research/core';
import { audioUploadBodySchema, audioUrlBodySchema, transcriptionResponseSchema } from '../routes/audio.schemas';
import { errorResponseSchema } from '../routes/common.schemas';
import {
  crawledDocumentSchema,
  crawlerBatchBodySchema,
  crawlerBatchResponseSchema,
  crawlerFetchBodySchema,
  validateUrlBodySchema,
  validateUrlResponseSchema,
} from '../routes/crawler.schemas';
import { plannerBodySchema, plannerResponseSchema } from '../routes/planner.schemas';
import { claimsResponseSchema, evidenceResponseSchema, reportResponseSchema } from '../routes/research.schemas';
import {
  clusterClaimsResponseSchema,
  clustersResponseSchema,
  extractClaimsBodySchema,
  extractClaimsResponseSchema,
  listRelationsQuerySchema,
  relationsResponseSchema,
  runIdPathSchema,
  synthesisResponseSchema,
} from '../routes/run-analysis.schemas';
import { searchBodySchema, searchResponseSchema } from '../routes/search.schemas';
import { visionBodySchema, visionResponseSchema } from '../routes/vision.schemas';

type Responses = RouteConfig['responses'];

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(errorResponseSchema, description);
const body = (schema: z.ZodType) => ({ body: { required: true, content: { 'application/json': { schema } } } });

const KEYED: Responses = {
  401: error('Missing, invalid, expired or revoked API key.'),
  400: error('Unparseable JSON.'),
  413: error('Body larger than 1 MiB.'),
  422: error('A field breaks its rule: `<field>: <reason>`.'),
};
const IN_FLIGHT = error(
  'The caller has too many crawler, vision or audio requests in flight (4; each fetch of a batch counts).',
);
const RUN_READ: Responses = {
  401: error('Missing, invalid, expired or revoked API key.'),
  404: error('Unknown, hidden or malformed run id: `Research run <id> not found`.'),
};
const RUN_WRITE: Responses = {
  ...RUN_READ,
  403: error('`You may only manage your own research runs.`'),
  409: error('The run is still running; its records can be changed once it has ended.'),
};

/** Registers one path of a mounted group, with the group's security already applied. */
type Route = (config: Omit<RouteConfig, 'security'>) => void;

/** SPEC 4.14's mounted route groups, with the zod schemas that validate them. */
export function registerMountedRoutes(registry: OpenAPIRegistry, security: RouteConfig['security']): void {
  const route: Route = (config) => registry.registerPath({ ...config, security });
  // The order of the calls is the order of the paths in the served document.
  registerSearchAndCrawlerRoutes(route);
  registerPlannerRoute(route);
  registerRunAnalysisRoutes(route);
  registerMediaRoutes(route);
}

function registerSearchAndCrawlerRoutes(route: Route): void {
  route({
    method: 'post',
    path: '/search',
    summary: 'Search the web through a configured provider',
    tags: ['search'],
    request: body(searchBodySchema),
    responses: {
      200: json(searchResponseSchema, 'Normalised, de-duplicated results.'),
      ...KEYED,
      429: error('The key has used its SEARCHES_PER_KEY_PER_MINUTE; `Retry-After` says when to retry.'),
      503: error('The provider failed after its retries (`Search provider <name> …`).'),
    },
  });

  route({
    method: 'post',
    path: '/crawler/fetch',
    summary: 'Fetch and extract one page (SSRF guard, robots.txt, byte cap)',
    tags: ['crawler'],
    request: body(crawlerFetchBodySchema),
    responses: {
      200: json(crawledDocumentSchema, 'Extracted text and metadata (never raw bytes).'),
      ...KEYED,
      422: error('A bad field, or a URL that cannot be read: `url: <reason>: <message>`.'),
      429: IN_FLIGHT,
    },
  });
  route({
    method: 'post',
    path: '/crawler/fetch/batch',
    summary: 'Fetch up to 10 pages; each gets its document or its error',
    tags: ['crawler'],
    request: body(crawlerBatchBodySchema),
    responses: { 200: json(crawlerBatchResponseSchema, 'One result per URL, in order.'), ...KEYED, 429: IN_FLIGHT },
  });
  route({
    method: 'post',
    path: '/crawler/validate-url',
    summary: 'Whether the crawler would fetch a URL, and why not',
    tags: ['crawler'],
    request: body(validateUrlBodySchema),
    responses: { 200: json(validateUrlResponseSchema, 'Normalised URL and verdict.'), ...KEYED, 429: IN_FLIGHT },
  });
}

function registerPlannerRoute(route: Route): void {
  route({
    method: 'post',
    path: '/research/planner',
    summary: 'Plan a question as the pipeline would (no run is created)',
    tags: ['analysis'],
    request: body(plannerBodySchema),
    responses: {
      200: json(plannerResponseSchema, 'The validated plan.'),
      ...KEYED,
      400: error("Unparseable JSON, or `Ungültige Tiefe '<depth>'. …`"),
    },
  });
}

function registerRunAnalysisRoutes(route: Route): void {
  const run = (operation: {
    method: RouteConfig['method'];
    /** The path after `/research/{run_id}`. */
    suffix: string;
    summary: string;
    responses: Responses;
    request?: Partial<RouteConfig['request']>;
  }) => {
    const { method, suffix, summary, responses, request = {} } = operation;
    return route({
      method,
      path: `/research/{run_id}${suffix}`,
      summary,
      tags: ['analysis'],
      request: { params: runIdPathSchema, ...request },
      responses: { ...(method === 'get' ? RUN_READ : RUN_WRITE), ...responses },
    });
  };
  run({
    method: 'get',
    suffix: '/claims',
    summary: 'Claims of a run',
    responses: { 200: json(claimsResponseSchema, 'As GET /v1/research/{id}/claims.') },
  });
  run({
    method: 'post',
    suffix: '/claims',
    summary: 'Extract claims from a source of the run, or from given text and URL, and store them',
    responses: {
      200: json(
        extractClaimsResponseSchema,
        `The claims extracted (new and already stored). A source holds at most ${MAX_CLAIMS_PER_SOURCE} claims and a run ${MAX_CLAIMS_PER_RUN}: new claims beyond are not stored and are counted in \`over_limit_dropped\`.`,
      ),
      ...KEYED,
      ...RUN_WRITE,
      409: error(
        `The run is still running, or none of the new claims fits: the run already holds ${MAX_CLAIMS_PER_RUN} claims or the source ${MAX_CLAIMS_PER_SOURCE} (nothing is stored).`,
      ),
    },
    request: body(extractClaimsBodySchema),
  });
  run({
    method: 'post',
    suffix: '/cluster-claims',
    summary: 'Cluster the run’s claims and store clusters and relations',
    responses: {
      200: json(clusterClaimsResponseSchema, 'The stored clusters and how many relations were stored.'),
    },
  });
  run({
    method: 'get',
    suffix: '/clusters',
    summary: 'Stored claim clusters',
    responses: { 200: json(clustersResponseSchema, 'Clusters in order.') },
  });
  run({
    method: 'get',
    suffix: '/claim-relations',
    summary: 'Stored claim relations, page by page',
    responses: {
      200: json(
        relationsResponseSchema,
        'One page of supports, refines and contradicts relations; `total` counts all.',
      ),
      422: error('`limit` or `offset` out of range: `<field>: <reason>`.'),
    },
    request: { query: listRelationsQuerySchema },
  });
  run({
    method: 'get',
    suffix: '/evidence',
    summary: 'Evidence scores of a run',
    responses: { 200: json(evidenceResponseSchema, 'One score per claim.') },
  });
  run({
    method: 'post',
    suffix: '/evidence',
    summary: 'Recompute and store the evidence scores',
    responses: {
      200: json(evidenceResponseSchema, 'The new scores (also on /v1/research/{id}/evidence).'),
    },
  });
  run({
    method: 'get',
    suffix: '/synthesis',
    summary: 'Report of a run',
    responses: { 200: json(reportResponseSchema, 'As GET /v1/research/{id}/report.') },
  });
  run({
    method: 'post',
    suffix: '/synthesis',
    summary: 'Write and store the run’s report from its current evidence',
    responses: {
      200: json(
        synthesisResponseSchema,
        'The new report (also on /v1/research/{id}/report), with `engine` and `fallbacks` of this call.',
      ),
    },
  });
}

function registerMediaRoutes(route: Route): void {
  route({
    method: 'post',
    path: '/vision/analyze',
    summary: 'Describe an image and list the claims it supports',
    description: 'JSON bodies up to what a base64 image of VISION_MAX_IMAGE_BYTES needs are accepted here.',
    tags: ['media'],
    request: body(visionBodySchema),
    responses: {
      200: json(visionResponseSchema, 'Description and grounded claims.'),
      ...KEYED,
      413: error('The image is larger than VISION_MAX_IMAGE_BYTES.'),
      429: IN_FLIGHT,
      503: error('Vision is not configured, or the provider gave no usable answer.'),
    },
  });
  route({
    method: 'post',
    path: '/audio/transcribe',
    summary: 'Transcribe an uploaded or linked audio file',
    tags: ['media'],
    request: {
      body: {
        required: true,
        content: {
          'multipart/form-data': { schema: audioUploadBodySchema },
          'application/json': { schema: audioUrlBodySchema },
        },
      },
    },
    responses: {
      200: json(transcriptionResponseSchema, 'Text, language and duration.'),
      ...KEYED,
      400: error('Unparseable JSON, or a multipart body that cannot be read (`Malformed multipart body…`).'),
      413: error('The audio is larger than AUDIO_MAX_BYTES.'),
      422: error('A bad field, or audio longer than AUDIO_MAX_DURATION_SECONDS.'),
      429: IN_FLIGHT,
      503: error('Audio is not configured, or the provider failed.'),
    },
  });
}
