import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpClientConfig } from './config';
import { createResearchApiClient } from './research-api.client';
import { createResearchMcpServer } from './server';

/**
 * The research MCP server on this process's stdin and stdout, talking to the API of `config`; stdout
 * carries the protocol alone. `closed` resolves once the client has closed stdin (or `stop` was called).
 */
export async function serveMcpOverStdio(
  config: McpClientConfig,
): Promise<{ closed: Promise<void>; stop(): Promise<void> }> {
  const server = createResearchMcpServer(createResearchApiClient({ baseUrl: config.apiUrl, apiKey: config.apiKey }));
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    // The SDK's transport does not watch for the end of stdin: the client closing it ends the session.
    process.stdin.once('end', resolve);
    process.stdin.once('close', resolve);
    transport.onclose = resolve;
  });
  await server.connect(transport);
  return { closed, stop: () => server.close() };
}
