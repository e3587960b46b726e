#!/usr/bin/env node
import { ConfigError } from '@research/core';
import { loadMcpClientConfig, serveMcpOverStdio } from '@research/mcp';

// `npm run mcp`: the research API as MCP tools over stdio, for assistants that start their tools as
// processes. stdout carries the protocol alone: every other word goes to stderr.
async function main(): Promise<void> {
  const config = loadMcpClientConfig();
  const session = await serveMcpOverStdio(config);
  process.stderr.write(`research MCP server on stdio, talking to ${config.apiUrl}\n`);
  const stop = () =>
    void session
      .stop()
      .catch(() => undefined)
      .then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  await session.closed;
  stop();
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\nnpm run mcp needs RESEARCH_API_URL and RESEARCH_API_KEY.\n`);
    process.exit(2);
  }
  process.stderr.write(`Failed to start the MCP server: ${(error as Error).message}\n`);
  process.exit(1);
});
