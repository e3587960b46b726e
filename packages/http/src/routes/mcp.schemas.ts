import { z } from 'zod';

// The shapes of /mcp for the API description only: the MCP SDK's transport validates the messages.

/** A JSON-RPC 2.0 message of MCP (a batch is an array of them). */
export const mcpMessageSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int()]).optional().meta({ description: 'Absent in a notification.' }),
    method: z.string().meta({ description: '`initialize`, `tools/list`, `tools/call`, …' }),
    params: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({
    id: 'McpRequest',
    example: {
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'get_research', arguments: { research_id: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61' } },
    },
  });

/** The JSON-RPC answer: a result, or an error of the protocol (a failed tool call is a result with isError). */
export const mcpResponseSchema = z
  .object({
    jsonrpc: z.literal('2.0'),
    id: z.union([z.string(), z.number().int(), z.null()]),
    result: z.record(z.string(), z.unknown()).optional(),
    error: z.object({ code: z.number().int(), message: z.string() }).optional(),
  })
  .meta({
    id: 'McpResponse',
    example: {
      jsonrpc: '2.0',
      id: 2,
      result: {
        content: [{ type: 'text', text: 'Research run 0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61 not found (HTTP 404)' }],
        structuredContent: { status: 404, detail: 'Research run 0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61 not found' },
        isError: true,
      },
    },
  });
