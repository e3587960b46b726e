import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';
import { errorResponseSchema } from '../routes/common.schemas';
import { mcpMessageSchema, mcpResponseSchema } from '../routes/mcp.schemas';

const error = (description: string) => ({
  description,
  content: { 'application/json': { schema: errorResponseSchema } },
});

/** `/mcp`: the research tools over MCP's streamable HTTP transport, keyed by Bearer token or X-API-Key. */
export function registerMcpRoutes(registry: OpenAPIRegistry, apiKey: RouteConfig['security']): void {
  const bearer = registry.registerComponent('securitySchemes', 'BearerApiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key sent as `Authorization: Bearer <key>` (the way MCP clients send one).',
  });
  registry.registerPath({
    method: 'post',
    path: '/mcp',
    summary: 'MCP (streamable HTTP, stateless): the research tools for assistants',
    description:
      'Tools `start_research`, `get_research`, `get_report` (format json, markdown or html), `list_claims`, ' +
      '`search` and `list_research` (q, parent_id), each one call of this API with the caller’s key, so its rules (404s, ownership, quotas, field ' +
      'rules) hold unchanged; an API error is a tool result with `isError: true`, `structuredContent: {status, ' +
      'detail}`. Stateless: every POST stands alone (no `Mcp-Session-Id`), so `GET` and `DELETE /mcp` answer 405. ' +
      'The `Accept` header must list `application/json` and `text/event-stream` (the MCP transport’s rule).',
    tags: ['mcp'],
    security: [...(apiKey ?? []), { [bearer.name]: [] }],
    request: {
      body: {
        required: true,
        content: { 'application/json': { schema: z.union([mcpMessageSchema, z.array(mcpMessageSchema)]) } },
      },
    },
    responses: {
      200: {
        description: 'The answer to the request(s) of the message.',
        content: { 'application/json': { schema: z.union([mcpResponseSchema, z.array(mcpResponseSchema)]) } },
      },
      202: { description: 'Notifications only: accepted, no answer.' },
      400: error('Unparseable JSON.'),
      401: error('Missing, invalid, expired or revoked API key.'),
      413: error('Body larger than 1 MiB.'),
    },
  });
}
