import { deleteExpiredPages } from '@research/crawler';
import { createEvidenceEngine } from '@research/engine';
import type { ResearchEngine } from '@research/pipeline';
import { createSearchProvider } from '@research/search';
import type { Services } from './services';
import { createLiveWebAccess } from './web-access';

/** The research engine of a process, with the resources it holds (extraction threads, corpus index). */
const PAGE_CACHE_SWEEP_MS = 60 * 60 * 1000;

export interface ProcessEngine {
  readonly engine: ResearchEngine;
  /** Removes expired pages from the crawler's cache now (also done hourly). */
  sweepPageCache(): Promise<void>;
  close(): Promise<void>;
}

/**
 * One engine per process: the evidence engine (with the configured LLM, or extractive without one) over
 * the configured search provider and the process's guarded crawler. The LLM client is the process's
 * runs' client, so LLM_MAX_CONCURRENCY holds across all runs it works on (the mounted routes have their own).
 */
export function createProcessEngine(services: Services): ProcessEngine {
  const { config, logger, metrics, db } = services;
  const provider = createSearchProvider(config, { logger });
  const engine = createEvidenceEngine({
    config,
    logger,
    metrics,
    llm: services.llm(),
    web: createLiveWebAccess({ config, provider, crawler: services.crawler(), logger }),
  });
  // Expired cached pages are never read again; drop them hourly so the cache table stays small.
  const sweep = () =>
    deleteExpiredPages(db, new Date()).then(
      (removed) => removed > 0 && logger.debug('expired cached pages removed', { removed }),
      (error: unknown) => logger.warn('page cache cleanup failed', { error }),
    );
  const sweeper = setInterval(() => void sweep(), PAGE_CACHE_SWEEP_MS);
  sweeper.unref();
  return {
    engine,
    sweepPageCache: async () => {
      await sweep();
    },
    async close() {
      // The crawler and the LLM client are the process's (Services), closed with it.
      clearInterval(sweeper);
      await provider.close?.();
    },
  };
}
