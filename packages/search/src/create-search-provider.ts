import { existsSync, statSync } from 'node:fs';
import { AppError, type AppConfig } from '@research/core';
import type { Logger } from '@research/observability';
import type { RetryPolicy } from './provider-http';
import { createBraveProvider } from './providers/brave.provider';
import { createLocalProvider } from './providers/local.provider';
import { createSearxngProvider } from './providers/searxng.provider';
import { createTavilyProvider } from './providers/tavily.provider';
import { createWikipediaProvider } from './providers/wikipedia.provider';
import type { SearchProvider } from './search-provider';

export interface SearchProviderDeps {
  logger: Logger;
  /** Overrides of the configured timeouts/retries (tests). */
  policy?: Partial<RetryPolicy>;
}

function missing(provider: string, variable: string): AppError {
  return new AppError('internal', `SEARCH_PROVIDER=${provider} needs ${variable} to be set`);
}

/**
 * The search provider chosen by SEARCH_PROVIDER. Fails at once, with the variable to set, when the
 * chosen provider lacks its setting (so a misconfigured process stops at start, not at the first run).
 */
export function createSearchProvider(config: AppConfig, deps: SearchProviderDeps): SearchProvider {
  const search = config.search;
  const logger = deps.logger.child({ subsystem: 'search', provider: search.provider });
  const policy: Partial<RetryPolicy> = {
    timeoutMs: search.timeoutMs,
    retries: search.maxRetries,
    baseDelayMs: search.retryBaseMs,
    ...deps.policy,
  };
  switch (search.provider) {
    case 'wikipedia':
      return createWikipediaProvider({ apiUrl: search.wikipediaApiUrl, logger, policy });
    case 'searxng':
      if (!search.searxngUrl) throw missing('searxng', 'SEARXNG_URL');
      return createSearxngProvider({ baseUrl: search.searxngUrl, logger, policy });
    case 'brave':
      if (!search.braveApiKey) throw missing('brave', 'BRAVE_API_KEY');
      return createBraveProvider({ apiKey: search.braveApiKey, apiUrl: search.braveApiUrl, logger, policy });
    case 'tavily':
      if (!search.tavilyApiKey) throw missing('tavily', 'TAVILY_API_KEY');
      return createTavilyProvider({ apiKey: search.tavilyApiKey, apiUrl: search.tavilyApiUrl, logger, policy });
    case 'local': {
      const dir = search.localCorpusDir;
      if (!dir) throw missing('local', 'LOCAL_CORPUS_DIR');
      if (!existsSync(dir) || !statSync(dir).isDirectory()) {
        throw new AppError('internal', `LOCAL_CORPUS_DIR is not a readable folder: ${dir}`);
      }
      return createLocalProvider({ corpusDir: dir, logger, pollIntervalMs: search.localCorpusPollMs });
    }
  }
}
