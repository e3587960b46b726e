import { deleteExpiredPages } from '@research/crawler';
import { createCollectionLibrary, type ResearchServices } from '@research/pipeline';
import { createSearchProvider, LocalSearchProvider } from '@research/search';
import { startLocalCollectionSync } from './local-collection';
import type { Services } from './services';

const PAGE_CACHE_SWEEP_MS = 60 * 60 * 1000;

/** What the pipeline's steps reach in a process, with the resources it holds (search provider, cache sweeper). */
export interface ProcessResearchServices {
  readonly services: ResearchServices;
  /** Removes expired pages from the crawler's cache now (also done hourly). */
  sweepPageCache(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The research services of a process: the configured search provider, the process's guarded crawler and
 * LLM client (extractive without LLM_BASE_URL), and the local corpus folder. The LLM client is the
 * process's runs' client, so LLM_MAX_CONCURRENCY holds across all runs it works on (the mounted routes
 * have their own).
 */
export function createProcessResearchServices(services: Services): ProcessResearchServices {
  const { config, logger, db } = services;
  const searchProvider = createSearchProvider(config, { logger });
  const research: ResearchServices = {
    llm: services.llm(),
    searchProvider,
    crawler: services.crawler(),
    localCorpusDir: config.search.localCorpusDir,
    collections: createCollectionLibrary(db),
  };
  // Expired cached pages are never read again; drop them hourly so the cache table stays small.
  const sweep = () =>
    deleteExpiredPages(db, new Date()).then(
      (removed) => removed > 0 && logger.debug('expired cached pages removed', { removed }),
      (error: unknown) => logger.warn('page cache cleanup failed', { error }),
    );
  const sweeper = setInterval(() => void sweep(), PAGE_CACHE_SWEEP_MS);
  sweeper.unref();
  // The local provider's folder is also a collection of the service's, kept in step with its index.
  const localCollection =
    searchProvider instanceof LocalSearchProvider
      ? startLocalCollectionSync({ db, provider: searchProvider, logger, intervalMs: config.search.localCorpusPollMs })
      : null;
  return {
    services: research,
    sweepPageCache: async () => {
      await sweep();
    },
    async close() {
      // The crawler and the LLM client are the process's (Services), closed with it.
      clearInterval(sweeper);
      await localCollection?.close();
      await searchProvider.close?.();
    },
  };
}
