import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { ResearchApi } from './research-api.client';
import { createResearchMcpServer } from './server';

/** One POST of the streamable HTTP transport, its JSON body already parsed (undefined when not JSON). */
export interface McpHttpRequest {
  readonly api: ResearchApi;
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly body: unknown;
}

/**
 * Answers one MCP message (or batch) posted over streamable HTTP, statelessly: a server and a transport
 * for this request alone, closed with its response. No session lives in a process, so any API process of
 * a fleet can answer any request, and nothing is left behind by a client that goes away. Answers are
 * plain JSON (the tools send no notifications, so there is nothing to stream).
 */
export async function handleMcpHttpRequest({ api, req, res, body }: McpHttpRequest): Promise<void> {
  const server = createResearchMcpServer(api);
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}
