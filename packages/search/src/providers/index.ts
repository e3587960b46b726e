import type { SearchProviderName } from '@research/core';
import { braveRegistration } from './brave.provider';
import { localRegistration } from './local.provider';
import type { SearchProviderRegistration } from './provider-deps';
import { searxngRegistration } from './searxng.provider';
import { tavilyRegistration } from './tavily.provider';
import { wikipediaRegistration } from './wikipedia.provider';

/**
 * Every search provider, by the name SEARCH_PROVIDER (and POST /search's `provider`) gives it: the one place
 * that lists them. A new provider is its file plus one line here and its name in core's SEARCH_PROVIDER_NAMES;
 * the type makes the two lists agree.
 */
export const SEARCH_PROVIDER_REGISTRY: Readonly<Record<SearchProviderName, SearchProviderRegistration>> = {
  wikipedia: wikipediaRegistration,
  searxng: searxngRegistration,
  brave: braveRegistration,
  tavily: tavilyRegistration,
  local: localRegistration,
};
