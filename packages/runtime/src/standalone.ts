import type { AppConfig } from '@research/core';
import { createApp } from '@research/http';
import { createBullResearchQueue, type ResearchQueue } from '@research/queue';
import { buildAppContext, llmPreflight, type Stoppable } from './api';
import { closeServer, listen } from './http-server';
import { ensureInitialAdmin } from './initial-admin';
import { logWelcome } from './welcome';
import { openServices } from './services';
import { startInProcessWorker, startQueueWorker } from './worker';

/**
 * `npm start`: API and worker in one process. Embedded Postgres (PGlite under DATA_DIR) without
 * DATABASE_URL; an in-process queue without REDIS_URL, a BullMQ worker in this process with it.
 */
export async function startAllRuntime(config: AppConfig): Promise<Stoppable> {
  const services = await openServices(config, 'all');
  try {
    await ensureInitialAdmin(services.db, config.dataDir, services.logger);
  } catch (error) {
    await services.close();
    throw error;
  }
  let queue: ResearchQueue;
  let worker: { stop(): Promise<void> };
  if (config.redisUrl) {
    queue = createBullResearchQueue({ redisUrl: config.redisUrl, prefix: config.redisPrefix, logger: services.logger });
    worker = startQueueWorker(services);
  } else {
    const inProcess = startInProcessWorker(services);
    queue = inProcess.queue;
    worker = inProcess;
  }
  const ctx = buildAppContext(services, queue);
  const server = await listen(createApp(ctx), config, services.logger);
  services.logger.info('service listening', {
    host: config.host,
    port: config.port,
    database: services.databaseKind,
    queue: config.redisUrl ? 'redis' : 'in-process',
  });
  logWelcome(config, services.logger);
  void llmPreflight(services);
  return {
    async stop() {
      // Open event streams end first: the server drains only once no response is in flight.
      ctx.runEvents?.close();
      await closeServer(server);
      await ctx.tools?.close();
      await worker.stop();
      await queue.close();
      await services.close();
    },
  };
}
