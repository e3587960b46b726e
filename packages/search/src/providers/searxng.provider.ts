import { languageWithRegion } from '../language';
import type { SearchProvider } from '../search-provider';
import { withSiteOperators } from '../site-operators';
import {
  clampLimit,
  createRemoteProvider,
  hitsOf,
  type RemoteProviderDeps,
  type SearchProviderRegistration,
} from './provider-deps';

const PROVIDER = 'searxng';

// SearxNG passes the query to its engines, which read `site:` operators; kept as short as Brave's limit.
const SEARXNG_QUERY_LIMITS = { maxChars: 400, maxWords: 50 };

export interface SearxngProviderOptions extends RemoteProviderDeps {
  /** SEARXNG_URL: the instance's base URL; queried as `GET {base}/search?q=…&format=json`. */
  baseUrl: string;
}

/**
 * A SearxNG instance's JSON API. The instance must list `json` in `search.formats` (settings.yml);
 * otherwise it answers 403, reported as such. SearxNG has no result-count parameter, so the first page
 * is cut to the limit. A run's domain controls go as `site:`/`-site:` operators in the query (SearxNG has no
 * date range finer than a year, so published_after is left to the pipeline).
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
    request: (query, { language, filter }) => ({
      method: 'GET',
      url: endpoint,
      params: {
        q: withSiteOperators(query, filter, SEARXNG_QUERY_LIMITS),
        format: 'json',
        pageno: 1,
        language: languageWithRegion(language) ?? 'all',
      },
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
  endpoint: (search) => search.searxngUrl ?? null,
  create: (search, deps) => createSearxngProvider({ baseUrl: search.searxngUrl!, ...deps }),
};
