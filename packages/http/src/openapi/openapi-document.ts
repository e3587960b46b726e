import { OpenAPIRegistry, OpenApiGeneratorV3, type RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { VERSION } from '@research/core';
import { finishDocument } from './document-finish';
import { hiddenRunsResponseSchema, purgeResponseSchema } from '../routes/admin.schemas';
import { errorResponseSchema, runIdParamsSchema } from '../routes/common.schemas';
import { reportDocumentResponseSchema, reportQuerySchema } from '../routes/report-export.schemas';
import {
  claimsResponseSchema,
  createResearchBodySchema,
  createResearchResponseSchema,
  deleteResearchBodySchema,
  evidenceResponseSchema,
  hideResponseSchema,
  listResearchQuerySchema,
  planResponseSchema,
  protectionRemovedResponseSchema,
  protectionResponseSchema,
  removeProtectionBodySchema,
  reportResponseSchema,
  researchListResponseSchema,
  researchStatusResponseSchema,
  setProtectionBodySchema,
  sourcesResponseSchema,
} from '../routes/research.schemas';
import {
  cancelResponseSchema,
  runEventsHeadersSchema,
  runEventsQuerySchema,
  runEventsResponseSchema,
} from '../routes/research-events.schemas';
import { webhookDeliveriesResponseSchema } from '../routes/webhook-deliveries.schemas';
import { healthResponseSchema, providersResponseSchema, readinessResponseSchema } from '../routes/system.schemas';
import { registerMcpRoutes } from './mcp.openapi';
import { registerMountedRoutes } from './mounted-routes.openapi';
import { registerEvidenceRoutes } from './research-evidence.openapi';
import { registerRunCostRoutes } from './run-cost.openapi';
import { registerPlanReviewRoutes } from './plan-review.openapi';
import { registerCollectionRoutes } from './collections.openapi';

type Responses = RouteConfig['responses'];
type Security = RouteConfig['security'];

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(errorResponseSchema, description);

const AUTH_ERRORS: Responses = {
  401: error('Missing, invalid, expired or revoked API key.'),
};
const RUN_ERRORS: Responses = {
  ...AUTH_ERRORS,
  404: error('Unknown, hidden or malformed research id: `Research run <id> not found`.'),
};
const BODY_ERRORS: Responses = {
  400: error('Unparseable JSON.'),
  413: error('Body larger than 1 MiB.'),
  422: error('A field breaks its rule: `<field>: <reason>`.'),
};

const REPORT_EXPORTS =
  'JSON by default; `format` or `Accept` exports it as Markdown, one self-contained HTML page or PDF ' +
  '(served inline as `research-<id>.md|html|pdf`), with numbered citations, the quoted evidence under each ' +
  'finding and the cited sources with their URLs and fetch times.';
/** The report in SPEC's JSON and in each export format. */
const REPORT_RESPONSE = {
  description: 'The report, or a notice in `summary` while none exists (in every format).',
  content: {
    'application/json': { schema: reportResponseSchema },
    'text/markdown': { schema: z.string() },
    'text/html': { schema: z.string() },
    'application/pdf': { schema: z.string().meta({ format: 'binary' }) },
  },
};

/**
 * The OpenAPI 3 description of the service, generated from the same zod schemas that validate the
 * requests (served under DEBUG only).
 */
export function buildOpenApiDocument(): ReturnType<OpenApiGeneratorV3['generateDocument']> {
  const registry = new OpenAPIRegistry();
  const apiKey = registry.registerComponent('securitySchemes', 'ApiKey', {
    type: 'apiKey',
    in: 'header',
    name: 'X-API-Key',
    description: 'An API key created with `npm run cli -- keys create <username>`.',
  });
  const secured = [{ [apiKey.name]: [] }];
  // The order of the calls is the order of the paths in the served document.
  registerSystemRoutes(registry);
  registerResearchRoutes(registry, secured);
  registerEvidenceRoutes(registry, secured);
  registerRunCostRoutes(registry, secured);
  registerPlanReviewRoutes(registry, secured);
  registerAdminRoutes(registry, secured);
  registerMountedRoutes(registry, secured);
  registerMcpRoutes(registry, secured);
  registerCollectionRoutes(registry, secured);

  const generated = new OpenApiGeneratorV3(registry.definitions).generateDocument({
    openapi: '3.0.3',
    // Relative: the document is served by the service it describes, wherever that is.
    servers: [{ url: '/', description: 'The service that serves this document' }],
    info: {
      title: 'Research service',
      version: VERSION,
      license: { name: 'MIT', url: 'https://opensource.org/licenses/MIT' },
      description:
        'Accepts a research question, runs an asynchronous evidence pipeline (plan, search, fetch, analyze, compare, synthesize) and exposes the run, its sources, claims, evidence scores, plan and report.',
    },
    tags: [
      { name: 'system', description: 'Liveness, readiness, providers and metrics (no key).' },
      { name: 'research', description: 'Research runs (X-API-Key).' },
      { name: 'admin', description: 'Hidden runs (administrators).' },
      { name: 'search', description: 'Web search through the configured providers (X-API-Key).' },
      { name: 'crawler', description: 'The guarded crawler (X-API-Key).' },
      { name: 'analysis', description: 'Planner, claims, clustering, evidence and synthesis of runs (X-API-Key).' },
      { name: 'media', description: 'Vision and audio providers (X-API-Key).' },
      { name: 'mcp', description: 'The research tools for assistants over MCP (Bearer key or X-API-Key).' },
      { name: 'collections', description: 'Collections of uploaded documents and their full-text search (X-API-Key).' },
    ],
  });
  return finishDocument(generated);
}

function registerSystemRoutes(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/health',
    summary: 'Liveness and version',
    tags: ['system'],
    security: [],
    responses: { 200: json(healthResponseSchema, 'The service is alive.') },
  });
  registry.registerPath({
    method: 'get',
    path: '/ready',
    summary: 'Readiness of database, queue and LLM (always 200)',
    tags: ['system'],
    security: [],
    responses: { 200: json(readinessResponseSchema, '`ready` or `not_ready` with each check.') },
  });
  registry.registerPath({
    method: 'get',
    path: '/providers',
    summary: 'Configured model providers (no secrets)',
    tags: ['system'],
    security: [],
    responses: { 200: json(providersResponseSchema, 'LLM, vision and audio availability.') },
  });
  registry.registerPath({
    method: 'get',
    path: '/metrics',
    summary: 'Prometheus metrics of the API and every live worker',
    tags: ['system'],
    security: [],
    responses: { 200: { description: 'Prometheus text format.', content: { 'text/plain': { schema: z.string() } } } },
  });
}

/** One route of a run (`/v1/research/{id}…`): its id parameter, key and 401/404 answers added. */
interface RunOperation {
  method: RouteConfig['method'];
  path: string;
  summary: string;
  responses: Responses;
  request?: RouteConfig['request'];
  description?: string;
}

/** The run's progress (events) and its stop. */
function registerRunProgressRoutes(run: (operation: RunOperation) => void): void {
  run({
    method: 'get',
    path: '/v1/research/{id}/events',
    summary: 'Progress of a run, live (Server-Sent Events) or as JSON pages',
    description:
      'With `Accept: text/event-stream`: one event per step of the pipeline (`id: <seq>`, `event: <type>`, `data: {"seq", "type", "at", …}`), first those already stored after `after` (or `Last-Event-ID`), then each as it is written; a comment line every 15 s; the stream ends after the `end` event; a stream asked for after the `end` event (an EventSource reconnecting once the run has ended) gets 204, which tells the client to stop. Otherwise: JSON pages of the same events.',
    request: { query: runEventsQuerySchema, headers: runEventsHeadersSchema },
    responses: {
      200: {
        description: 'The events after `after`.',
        content: {
          'application/json': { schema: runEventsResponseSchema },
          'text/event-stream': { schema: { type: 'string', description: 'Server-Sent Events.' } },
        },
      },
      204: { description: "A stream asked for after the run's `end` event: nothing more will come." },
      422: error('`after`, `limit` or `Last-Event-ID` out of range.'),
    },
  });
  run({
    method: 'post',
    path: '/v1/research/{id}/cancel',
    summary: 'Stop a running run, keeping what it found',
    description:
      'Ends the run as `cancelled` within seconds (the worker aborts the step it is in), keeping its sources, claims and evidence and storing a report built from them whose uncertainties say it was stopped. Owner or administrator, as DELETE.',
    responses: {
      202: json(cancelResponseSchema, 'The run is being stopped.'),
      403: error('Not the owner: `You may only manage your own research runs.`'),
      409: error('The run has already ended.'),
    },
  });
  run({
    method: 'get',
    path: '/v1/research/{id}/webhook-deliveries',
    summary: "Attempts at the run's webhook",
    description:
      "Every attempt to POST the run's end to its `callback_url`, oldest first: when, the event, and the receiver's status code or why there was none. Empty for a run without `callback_url` or one that has not ended.",
    responses: { 200: json(webhookDeliveriesResponseSchema, 'The attempts so far.') },
  });
}

/** The report: SPEC's JSON and its exports, and the document the exports render. */
function registerReportRoutes(run: (operation: RunOperation) => void): void {
  run({
    method: 'get',
    path: '/v1/research/{id}/report',
    summary: 'Report of a run',
    description: REPORT_EXPORTS,
    request: { query: reportQuerySchema },
    responses: { 200: REPORT_RESPONSE, 422: error('`format: must be one of json, markdown, html, pdf`.') },
  });
  run({
    method: 'get',
    path: '/v1/research/{id}/report/document',
    summary: 'The report as the exports number it, each quote with its span in its source',
    description:
      "The report of GET /v1/research/{id}/report with the exports' numbering: the summary as text and `{finding: n}` citations, each finding's citations (source numbers) and quotes (the quoted claim, its `span_start`/`span_end` in code points of GET …/sources/{source_id}/content, its evidence scores), the disagreements with each position's citation, and every source of the run (cited ones first by number, then the others with `number: null`) with its primary/secondary type, mean independence and claim count. Read rules as GET …/report; before a report exists, the notice as the summary and no findings, with the sources found so far.",
    responses: { 200: json(reportDocumentResponseSchema, 'The report document.') },
  });
}

function registerResearchRoutes(registry: OpenAPIRegistry, secured: Security): void {
  const run = (operation: RunOperation) => {
    const { method, path, summary, responses, request, description } = operation;
    return registry.registerPath({
      method,
      path,
      summary,
      tags: ['research'],
      security: secured,
      request: { params: runIdParamsSchema, ...request },
      responses: { ...RUN_ERRORS, ...responses },
      ...(description ? { description } : {}),
    });
  };

  registry.registerPath({
    method: 'post',
    path: '/v1/research',
    summary: 'Create a research run',
    description: 'Stores the run in state `created` and answers before the pipeline runs.',
    tags: ['research'],
    security: secured,
    request: { body: { required: true, content: { 'application/json': { schema: createResearchBodySchema } } } },
    responses: {
      200: json(createResearchResponseSchema, 'The run was created and scheduled.'),
      ...AUTH_ERRORS,
      ...BODY_ERRORS,
      422: error(
        'A field breaks its rule: `<field>: <reason>`; `callback_url: …` when WEBHOOK_SECRET is not set or the crawler may not reach the URL.',
      ),
      400: error(
        "Unparseable JSON, or a depth other than quick/normal/deep: `Ungültige Tiefe '<depth>'. Gültig: 'quick', 'normal', 'deep'.`",
      ),
      429: error(
        'The key has used its RUNS_PER_KEY_PER_MINUTE or RUNS_PER_KEY_PER_HOUR; `Retry-After` says when to retry.',
      ),
      409: error(
        'Extension: `parent_id` names a run that has not finished: `Research run <id> has not finished (state <state>): ask a follow-up once it has completed.` (an unknown, hidden or failed parent is a 422 `parent_id: …`).',
      ),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/research',
    summary: 'List research runs, newest first',
    tags: ['research'],
    security: secured,
    request: { query: listResearchQuerySchema },
    responses: {
      200: json(
        researchListResponseSchema,
        'One page of non-hidden runs (with `parent_id` or `q`: of those the filter keeps, `q` ranked by relevance).',
      ),
      ...AUTH_ERRORS,
      422: error('`limit` or `offset` out of range, `q` empty or over 200 characters, `parent_id` not a UUID.'),
    },
  });
  run({
    method: 'get',
    path: '/v1/research/{id}',
    summary: 'Status of a run',
    responses: { 200: json(researchStatusResponseSchema, 'The run.') },
  });
  run({
    method: 'get',
    path: '/v1/research/{id}/status',
    summary: 'Status of a run',
    responses: { 200: json(researchStatusResponseSchema, 'The run.') },
  });
  run({
    method: 'get',
    path: '/v1/research/{id}/sources',
    summary: 'Sources of a run',
    responses: {
      200: json(sourcesResponseSchema, 'Sources in discovery order.'),
    },
  });
  run({
    method: 'get',
    path: '/v1/research/{id}/claims',
    summary: 'Claims of a run',
    responses: {
      200: json(claimsResponseSchema, 'Claims extracted from the sources.'),
    },
  });
  run({
    method: 'get',
    path: '/v1/research/{id}/evidence',
    summary: 'Evidence scores of a run',
    responses: {
      200: json(evidenceResponseSchema, 'One score per claim.'),
    },
  });
  run({
    method: 'get',
    path: '/v1/research/{id}/plan',
    summary: 'Plan of a run',
    responses: {
      200: json(planResponseSchema, 'The plan, once planning ended.'),
    },
  });
  registerReportRoutes(run);
  registerRunProgressRoutes(run);
  run({
    method: 'delete',
    path: '/v1/research/{id}',
    summary: 'Soft-delete (hide and cancel) a run',
    responses: {
      200: json(hideResponseSchema, 'The run is hidden.'),
      ...BODY_ERRORS,
      403: error('Not the owner, or a protected run without the valid password.'),
    },
    request: { body: { required: false, content: { 'application/json': { schema: deleteResearchBodySchema } } } },
  });
  run({
    method: 'put',
    path: '/v1/research/{id}/deletion-protection',
    summary: 'Set or replace the deletion-protection password',
    responses: {
      200: json(protectionResponseSchema, 'The run is protected.'),
      ...BODY_ERRORS,
      403: error('Not the owner, or the current password is missing or wrong.'),
      409: error('The run has no retention record (legacy run).'),
    },
    request: { body: { required: true, content: { 'application/json': { schema: setProtectionBodySchema } } } },
  });
  run({
    method: 'delete',
    path: '/v1/research/{id}/deletion-protection',
    summary: 'Remove the deletion protection',
    responses: {
      200: json(protectionRemovedResponseSchema, 'The run is not protected.'),
      ...BODY_ERRORS,
      403: error('Not the owner, or the password is missing or wrong.'),
    },
    request: { body: { required: true, content: { 'application/json': { schema: removeProtectionBodySchema } } } },
  });
}

function registerAdminRoutes(registry: OpenAPIRegistry, secured: Security): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/admin/research/deleted',
    summary: 'List hidden runs, newest hidden first',
    tags: ['admin'],
    security: secured,
    responses: {
      200: json(hiddenRunsResponseSchema, 'Hidden runs.'),
      ...AUTH_ERRORS,
      403: error('`Administrator privileges are required.`'),
    },
  });
  registry.registerPath({
    method: 'delete',
    path: '/v1/admin/research/{id}',
    summary: 'Purge a hidden run permanently',
    tags: ['admin'],
    security: secured,
    request: { params: runIdParamsSchema },
    responses: {
      200: json(purgeResponseSchema, 'The run and its records are gone.'),
      ...AUTH_ERRORS,
      403: error('`Administrator privileges are required.`'),
      404: error('`No hidden research run found.`'),
    },
  });
}
