import type { AppConfig, LlmClient } from '@research/core';
import type { Logger, Metrics } from '@research/observability';
import { createLlmClient } from './llm-client';

/**
 * The LLM clients of one process, each built from the configuration on first use and then kept: every
 * client's semaphore only limits what goes through that one client, so a second client for the same
 * purpose would double its concurrency.
 */
export interface LlmClients {
  /** The research runs' client (LLM_MAX_CONCURRENCY across every run of the process), or null without LLM_BASE_URL. */
  runs(): LlmClient | null;
  /**
   * The mounted routes' client (planner, claims, synthesis): the same LLM with a limit of its own,
   * LLM_ROUTES_MAX_CONCURRENCY, so route traffic never waits in front of a run's calls; null without LLM_BASE_URL.
   */
  routes(): LlmClient | null;
  /** The vision model (VISION_BASE_URL or LLM_BASE_URL, VISION_MODEL) under the routes' limit, or null. */
  vision(): LlmClient | null;
}

/** The one place a process's LLM clients are made from its configuration (runtime's Services calls it once). */
export function createLlmClients(config: AppConfig, deps: { metrics: Metrics; logger: Logger }): LlmClients {
  const routesConfig: AppConfig['llm'] = { ...config.llm, maxConcurrency: config.llm.routesMaxConcurrency };
  const once = (build: () => LlmClient | null): (() => LlmClient | null) => {
    let client: LlmClient | null | undefined;
    return () => (client === undefined ? (client = build()) : client);
  };
  return {
    runs: once(() => (config.llm.baseUrl ? createLlmClient({ config: config.llm, ...deps }) : null)),
    routes: once(() => (config.llm.baseUrl ? createLlmClient({ config: routesConfig, ...deps }) : null)),
    vision: once(() => {
      const { baseUrl, model, apiKey } = config.vision;
      if (!baseUrl || !model) return null;
      // A route-only model: the routes' concurrency, its own endpoint, model and key.
      return createLlmClient({
        // The LLM's prices are not the vision model's: its tokens are counted, not priced.
        config: { ...routesConfig, baseUrl, model, apiKey, prices: null },
        metrics: deps.metrics,
        logger: deps.logger.child({ subsystem: 'vision' }),
      });
    }),
  };
}
