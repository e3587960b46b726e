import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '@research/core';
import { ResearchApiError, type ApiObject, type ResearchApi } from './research-api.client';
import { RESEARCH_TOOLS, type ResearchTool } from './tools';

// The most array items and object members one call's arguments may hold: a start_research with its 20
// extra queries and every optional field is far below; a client cannot make the server walk a huge payload.
const MAX_TOOL_INPUT_ELEMENTS = 1_000;

/** An API answer as a tool result: JSON text for any client, and the object itself as structured content. */
function toolResult(answer: ApiObject | string): CallToolResult {
  if (typeof answer === 'string') return { content: [{ type: 'text', text: answer }] };
  return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer };
}

/** A failed call as a tool error carrying the API's status and detail; never a stack. */
function toolError(error: unknown): CallToolResult {
  const failure =
    error instanceof ResearchApiError
      ? error
      : new ResearchApiError(null, 'The research API call failed unexpectedly.');
  return {
    isError: true,
    content: [{ type: 'text', text: failure.message }],
    structuredContent: { status: failure.status, detail: failure.detail },
  };
}

async function callTool(tool: ResearchTool, api: ResearchApi, input: unknown): Promise<CallToolResult> {
  try {
    return toolResult(await tool.call(api, input as never));
  } catch (error) {
    return toolError(error);
  }
}

/**
 * The research service as MCP tools (start_research, get_research, get_report, list_claims, search), each
 * one call of `api`, a client of the research API: over stdio it points at a running API, at `/mcp` at the
 * API process itself with the caller's key, so both transports answer exactly as the API does.
 */
export function createResearchMcpServer(api: ResearchApi): McpServer {
  const server = new McpServer(
    { name: 'research-service', title: 'Research service', version: VERSION },
    {
      maxToolInputElements: MAX_TOOL_INPUT_ELEMENTS,
      instructions:
        'Research questions with cited, checkable evidence: start_research, then get_research until the ' +
        'state is completed or failed, then get_report and list_claims. search is a single web search.',
    },
  );
  for (const tool of RESEARCH_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        annotations: tool.annotations,
      },
      (input: unknown) => callTool(tool, api, input),
    );
  }
  return server;
}
