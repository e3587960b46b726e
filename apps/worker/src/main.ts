import { ConfigError } from '@research/core';
import { loadServiceConfig } from '@research/runtime';
import { installShutdown, startWorkerRuntime } from '@research/runtime';

// `npm run start:worker`: executes research jobs from Redis; any number of these may run at once.
async function main(): Promise<void> {
  const config = loadServiceConfig();
  const worker = await startWorkerRuntime(config);
  installShutdown(() => worker.stop(), { timeoutMs: config.shutdownTimeoutMs, logger: worker.logger });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError ? error.message : `Failed to start: ${(error as Error).message}`}\n`,
  );
  process.exit(1);
});
