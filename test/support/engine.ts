import type { AppConfig } from '@research/core';
import { createCrawler } from '@research/crawler';
import type { Database } from '@research/database';
import { createMetrics, createSilentLogger, type Logger, type Metrics } from '@research/observability';
import type { ResearchServices } from '@research/pipeline';
import { createSearchProvider } from '@research/search';

export interface LiveWebDeps {
  /** The process metrics: the crawler counts rejected and duplicate pages here (a silent set when omitted). */
  metrics?: Metrics;
  logger?: Logger;
  /** Where the crawler's page cache lives (none when omitted; CRAWLER_CACHE_TTL_SECONDS=0 turns it off too). */
  db?: Database;
}

export interface LiveWeb {
  /** A worker's research services without an LLM. */
  readonly services: ResearchServices;
  /** Closes the crawler (its extraction thread and sockets) and the search provider. */
  close(): Promise<void>;
}

export type WorkerEngine = LiveWeb;

/**
 * The research services of a worker process for `config` (see packages/runtime/src/engine.ts): the
 * configured search provider and a guarded crawler, with one extraction thread and no politeness delay so
 * tests stay quick. Test fakes live on loopback: the config needs CRAWLER_ALLOW_PRIVATE_NETWORKS=true.
 */
export function createLiveWeb(config: AppConfig, deps: LiveWebDeps = {}): LiveWeb {
  const logger = deps.logger ?? createSilentLogger();
  const metrics = deps.metrics ?? createMetrics({ defaultMetrics: false });
  const provider = createSearchProvider(config, { logger });
  const crawler = createCrawler({
    config,
    logger,
    metrics,
    ...(deps.db ? { db: deps.db } : {}),
    options: { extraction: { threads: 1 }, politenessDelayMs: 0 },
  });
  return {
    services: { llm: null, searchProvider: provider, crawler, localCorpusDir: config.search.localCorpusDir },
    async close() {
      await crawler.close();
      await provider.close?.();
    },
  };
}

/**
 * What a worker process without LLM_BASE_URL gives the pipeline's steps for `config`: the live search
 * provider and crawler, no LLM. Pass the runner's metrics to see the crawler's counters next to the run's,
 * as in a worker (one metrics registry per process).
 */
export function createWorkerEngine(config: AppConfig, deps: LiveWebDeps = {}): WorkerEngine {
  return createLiveWeb(config, deps);
}
