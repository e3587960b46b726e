import { ConfigError } from '@research/core';
import { loadServiceConfig } from '@research/runtime';
import { installShutdown, startAllRuntime } from '@research/runtime';
import { createLogger } from '@research/observability';

// `npm start`: API and worker in one process; embedded Postgres without DATABASE_URL, in-process jobs without REDIS_URL.
async function main(): Promise<void> {
  const config = loadServiceConfig();
  const logger = createLogger(config, { service: 'research', role: 'all' });
  const service = await startAllRuntime(config);
  installShutdown(() => service.stop(), { timeoutMs: config.shutdownTimeoutMs, logger });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `Failed to start: ${(error as Error).message}`}\n`,
  );
  process.exit(1);
});
