import { AppError, type AppConfig } from '@research/core';
import type { Logger } from '@research/observability';
import type { RetryPolicy } from './provider-http';
import { SEARCH_PROVIDER_REGISTRY, isSearchProviderName } from './providers';
import type { SearchSettings } from './providers/provider-deps';
import type { SearchProvider } from './search-provider';

export interface SearchProviderDeps {
  logger: Logger;
  /** Overrides of the configured timeouts/retries (tests). */
  policy?: Partial<RetryPolicy>;
}

/** Whether `name` is a registered provider and the configuration has what it needs (URL, key, folder). */
export function isSearchProviderConfigured(search: SearchSettings, name: string): boolean {
  return isSearchProviderName(name) && SEARCH_PROVIDER_REGISTRY[name].missingSetting(search) === undefined;
}

/**
 * The address of the configured search provider's API, which /ready reaches to tell whether a run can search;
 * null when the provider needs no network (local files) or is not a registered one.
 */
export function searchProviderEndpoint(search: SearchSettings): string | null {
  return isSearchProviderName(search.provider) ? SEARCH_PROVIDER_REGISTRY[search.provider].endpoint(search) : null;
}

/**
 * The search provider chosen by SEARCH_PROVIDER, or `name` when given (POST /search's `provider`). Fails at
 * once, with the variable to set, when the provider lacks its setting (so a misconfigured process stops at
 * start, not at the first run).
 */
export function createSearchProvider(
  config: AppConfig,
  deps: SearchProviderDeps,
  name: string = config.search.provider,
): SearchProvider {
  const search = config.search;
  if (!isSearchProviderName(name)) throw new AppError('internal', `SEARCH_PROVIDER=${name} is not a search provider`);
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
