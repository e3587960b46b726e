import { languageWithRegion } from '../language';
import type { SearchProvider } from '../search-provider';
import {
  clampLimit,
  createRemoteProvider,
  hitsOf,
  type RemoteProviderDeps,
  type SearchProviderRegistration,
} from './provider-deps';

const PROVIDER = 'searxng';

export interface SearxngProviderOptions extends RemoteProviderDeps {
  /** SEARXNG_URL: the instance's base URL; queried as `GET {base}/search?q=…&format=json`. */
  baseUrl: string;
}

/**
 * A SearxNG instance's JSON API. The instance must list `json` in `search.formats` (settings.yml);
 * otherwise it answers 403, reported as such. SearxNG has no result-count parameter, so the first page
 * is cut to the limit.
 */
export function createSearxngProvider(options: SearxngProviderOptions): SearchProvider {
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/search`;
  return createRemoteProvider({
    name: PROVIDER,
    deps: options,
    describeError: (status) =>
      status === 403
        ? { kind: 'rejected', cause: 'HTTP 403: is the json format enabled in search.formats?' }
        : undefined,
    request: (query, { language }) => ({
      method: 'GET',
      url: endpoint,
      params: { q: query, format: 'json', pageno: 1, language: languageWithRegion(language) ?? 'all' },
    }),
    parse: (body, _request, { limit }) => {
      const results = (body as { results?: unknown })?.results;
      if (!Array.isArray(results)) throw new Error('no results');
      return hitsOf(PROVIDER, results, { snippet: 'content', dates: ['publishedDate'] }).slice(
        0,
        clampLimit(limit, 100),
      );
    },
  });
}

/** SEARCH_PROVIDER=searxng: SEARXNG_URL. */
export const searxngRegistration: SearchProviderRegistration = {
  missingSetting: (search) => (search.searxngUrl ? undefined : 'SEARXNG_URL'),
  create: (search, deps) => createSearxngProvider({ baseUrl: search.searxngUrl!, ...deps }),
};
