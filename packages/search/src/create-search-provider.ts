import { AppError, type AppConfig, type SearchProviderName } from '@research/core';
import type { Logger } from '@research/observability';
import type { RetryPolicy } from './provider-http';
import { SEARCH_PROVIDER_REGISTRY } from './providers';
import type { SearchSettings } from './providers/provider-deps';
import type { SearchProvider } from './search-provider';

export interface SearchProviderDeps {
  logger: Logger;
  /** Overrides of the configured timeouts/retries (tests). */
  policy?: Partial<RetryPolicy>;
}

/** Whether the configuration has what provider `name` needs (URL, key, folder). */
export function isSearchProviderConfigured(search: SearchSettings, name: SearchProviderName): boolean {
  return SEARCH_PROVIDER_REGISTRY[name].missingSetting(search) === undefined;
}

/**
 * The search provider chosen by SEARCH_PROVIDER, or `name` when given (POST /search's `provider`). Fails at
 * once, with the variable to set, when the provider lacks its setting (so a misconfigured process stops at
 * start, not at the first run).
 */
export function createSearchProvider(
  config: AppConfig,
  deps: SearchProviderDeps,
  name: SearchProviderName = config.search.provider,
): SearchProvider {
  const search = config.search;
  const registration = SEARCH_PROVIDER_REGISTRY[name];
  const missing = registration.missingSetting(search);
  if (missing) throw new AppError('internal', `SEARCH_PROVIDER=${name} needs ${missing} to be set`);
  const policy: Partial<RetryPolicy> = {
    timeoutMs: search.timeoutMs,
    retries: search.maxRetries,
    baseDelayMs: search.retryBaseMs,
    ...deps.policy,
  };
  return registration.create(search, { logger: deps.logger.child({ subsystem: 'search', provider: name }), policy });
}
