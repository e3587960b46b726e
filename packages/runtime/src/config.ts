import { loadConfig, type AppConfig } from '@research/core';
import { SEARCH_PROVIDER_NAMES } from '@research/search';

/**
 * A process's configuration: core's loadConfig with the names of the search package's provider registry, so
 * an unknown SEARCH_PROVIDER is listed beside every other problem before anything connects.
 */
export function loadServiceConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  return loadConfig(env, { searchProviders: SEARCH_PROVIDER_NAMES });
}
