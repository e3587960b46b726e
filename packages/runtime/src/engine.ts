import { createCrawler } from '@research/crawler';
import { createEvidenceEngine } from '@research/engine';
import type { ResearchEngine } from '@research/pipeline';
import { createSearchProvider } from '@research/search';
import type { Services } from './services';
import { createLiveWebAccess } from './web-access';

/** The research engine of a process, with the resources it holds (extraction threads, corpus index). */
export interface ProcessEngine {
  readonly engine: ResearchEngine;
  close(): Promise<void>;
}

/**
 * One engine per process: the evidence engine (with the configured LLM, or extractive without one) over
 * the configured search provider and the guarded crawler. One LLM client per process, so
 * LLM_MAX_CONCURRENCY holds across all runs the process works on.
 */
export function createProcessEngine(services: Services): ProcessEngine {
  const { config, logger, metrics, db } = services;
  const provider = createSearchProvider(config, { logger });
  const crawler = createCrawler({ config, logger, metrics, db });
  const engine = createEvidenceEngine({
    config,
    logger,
    metrics,
    web: createLiveWebAccess({ config, provider, crawler, logger }),
  });
  return {
    engine,
    async close() {
      await crawler.close();
      await provider.close?.();
    },
  };
}
