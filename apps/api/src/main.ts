import { ConfigError } from '@research/core';
import { loadServiceConfig } from '@research/runtime';
import { installShutdown, startApiRuntime } from '@research/runtime';
import { createLogger } from '@research/observability';

// `npm run start:api`: the HTTP API alone; workers run as their own processes.
async function main(): Promise<void> {
  const config = loadServiceConfig();
  const logger = createLogger(config, { service: 'research', role: 'api' });
  const api = await startApiRuntime(config);
  installShutdown(() => api.stop(), { timeoutMs: config.shutdownTimeoutMs, logger });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `Failed to start: ${(error as Error).message}`}\n`,
  );
  process.exit(1);
});
