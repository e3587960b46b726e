import { braveRegistration } from './brave.provider';
import { localRegistration } from './local.provider';
import type { SearchProviderRegistration } from './provider-deps';
import { searxngRegistration } from './searxng.provider';
import { tavilyRegistration } from './tavily.provider';
import { wikipediaRegistration } from './wikipedia.provider';

/**
 * Every search provider, by the name SEARCH_PROVIDER (and POST /search's `provider`) gives it: the one place
 * that lists them. A new provider is its file plus one line here; the names SEARCH_PROVIDER accepts, the
 * allowed values of POST /search's `provider` and the configuration check at start all follow from it.
 */
export const SEARCH_PROVIDER_REGISTRY = {
  wikipedia: wikipediaRegistration,
  searxng: searxngRegistration,
  brave: braveRegistration,
  tavily: tavilyRegistration,
  local: localRegistration,
} as const satisfies Readonly<Record<string, SearchProviderRegistration>>;

export type SearchProviderName = keyof typeof SEARCH_PROVIDER_REGISTRY;

/** The registry's names, in its order. */
export const SEARCH_PROVIDER_NAMES = Object.keys(SEARCH_PROVIDER_REGISTRY) as [
  SearchProviderName,
  ...SearchProviderName[],
];

export function isSearchProviderName(name: string): name is SearchProviderName {
  return Object.hasOwn(SEARCH_PROVIDER_REGISTRY, name);
}
