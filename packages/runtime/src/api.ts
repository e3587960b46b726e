import axios from 'axios';
import type { AppConfig } from '@research/core';
import { createApp, RunEventHub, type AppContext } from '@research/http';
import { createResearchTools } from '@research/runs';
import { createBullResearchQueue, type ResearchQueue } from '@research/queue';
import { closeServer, listen } from './http-server';
import { ensureInitialAdmin } from './initial-admin';
import { openServices, type Services } from './services';
import { logWelcome } from './welcome';

/** A running process part that can be stopped in order. */
export interface Stoppable {
  stop(): Promise<void>;
}

/** Warns (never fails) when the configured LLM does not answer its model list at start. */
export async function llmPreflight(services: Services): Promise<void> {
  const { llm } = services.config;
  if (!llm.baseUrl) {
    services.logger.info('no LLM configured: the pipeline uses its built-in extractive engine');
    return;
  }
  try {
    await axios.get(`${llm.baseUrl}/models`, {
      timeout: 5000,
      headers: llm.apiKey ? { Authorization: `Bearer ${llm.apiKey}` } : {},
    });
  } catch (error) {
    const reason =
      axios.isAxiosError(error) && error.response ? `HTTP ${error.response.status}` : (error as Error).name;
    services.logger.warn('LLM provider did not answer its model list at start', { reason });
  }
}

/** The HTTP context over opened services and a queue. */
export function buildAppContext(services: Services, queue: ResearchQueue): AppContext {
  const { fleet, config, redis } = services;
  return {
    config,
    db: services.db,
    databaseKind: services.databaseKind,
    queue,
    metrics: services.metrics,
    logger: services.logger,
    passwords: services.passwords,
    // The mounted route groups' tools: the crawler is the process's, shared with its worker; the LLM is the
    // routes' own client (LLM_ROUTES_MAX_CONCURRENCY), so route traffic cannot hold the runs' limit.
    tools: createResearchTools({
      config,
      logger: services.logger,
      metrics: services.metrics,
      db: services.db,
      crawler: () => services.crawler(),
      llm: services.routesLlm,
      vision: services.visionLlm,
    }),
    runEvents: new RunEventHub(services.db, { pollMs: config.http.eventsPollMs, logger: services.logger }),
    // This process's counts join the totals first, so every API process serves the same, current numbers.
    fleetMetrics: fleet
      ? async () => {
          if (!(await fleet.publish())) throw new Error('Redis did not take this process’s metrics');
          return fleet.read();
        }
      : async () => null,
    redis,
  };
}

/** `npm run start:api`: the API process alone (workers run elsewhere). Needs DATABASE_URL and REDIS_URL. */
export async function startApiRuntime(config: AppConfig): Promise<Stoppable> {
  if (!config.databaseUrl || !config.redisUrl) {
    throw new Error('start:api needs DATABASE_URL and REDIS_URL (use `npm start` for the all-in-one embedded mode).');
  }
  const services = await openServices(config, 'api');
  await ensureInitialAdmin(services.db, config.dataDir, services.logger);
  const queue = createBullResearchQueue({
    redisUrl: config.redisUrl,
    prefix: config.redisPrefix,
    logger: services.logger,
  });
  const ctx = buildAppContext(services, queue);
  const server = await listen(createApp(ctx), config, services.logger);
  services.logger.info('API listening', { host: config.host, port: config.port });
  logWelcome(config, services.logger);
  void llmPreflight(services);
  return {
    async stop() {
      // Open event streams end first: the server drains only once no response is in flight.
      ctx.runEvents?.close();
      await closeServer(server);
      await ctx.tools?.close();
      await queue.close();
      await services.close();
    },
  };
}
