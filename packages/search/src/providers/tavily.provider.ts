import type { SearchProvider } from '../search-provider';
import { clampLimit, createKeyedProvider, hitsOf } from './provider-deps';
import type { KeyedProviderOptions, SearchProviderRegistration } from './provider-deps';

const PROVIDER = 'tavily';

export const TAVILY_API_URL = 'https://api.tavily.com/search';

export type TavilyProviderOptions = KeyedProviderOptions;

/**
 * Tavily Search (`POST /search`, key as `Authorization: Bearer`). Results come in Tavily's relevance
 * order; `content` is the snippet. 432/433 mean the plan's or pay-as-you-go limit is spent (not retried).
 * Tavily takes no language parameter; the query's own language steers it. A run's source controls go as its
 * `include_domains`, `exclude_domains` and `start_date` (YYYY-MM-DD) body parameters.
 */
export function createTavilyProvider(options: TavilyProviderOptions): SearchProvider {
  return createKeyedProvider(options, {
    name: PROVIDER,
    describeError: (status, _body, detail) =>
      status === 432 || status === 433
        ? { kind: 'quota', cause: `HTTP ${status}: ${detail ?? 'usage limit exceeded'}` }
        : undefined,
    request: (query, { limit, filter }) => ({
      method: 'POST',
      url: options.apiUrl ?? TAVILY_API_URL,
      headers: { Authorization: `Bearer ${options.apiKey}`, 'Content-Type': 'application/json' },
      body: {
        query,
        max_results: clampLimit(limit, 20),
        search_depth: 'basic',
        topic: 'general',
        include_answer: false,
        include_images: false,
        include_raw_content: false,
        ...(filter?.include_domains.length ? { include_domains: filter.include_domains } : {}),
        ...(filter?.exclude_domains.length ? { exclude_domains: filter.exclude_domains } : {}),
        ...(filter?.published_after ? { start_date: filter.published_after } : {}),
      },
    }),
    parse: (body) => {
      const results = (body as { results?: unknown })?.results;
      if (!Array.isArray(results)) throw new Error('no results');
      return hitsOf(PROVIDER, results, { snippet: 'content', dates: ['published_date'] });
    },
  });
}

/** SEARCH_PROVIDER=tavily: TAVILY_API_KEY, and TAVILY_API_URL for another endpoint. */
export const tavilyRegistration: SearchProviderRegistration = {
  missingSetting: (search) => (search.tavilyApiKey ? undefined : 'TAVILY_API_KEY'),
  endpoint: (search) => search.tavilyApiUrl ?? TAVILY_API_URL,
  create: (search, deps) =>
    createTavilyProvider({ apiKey: search.tavilyApiKey!, apiUrl: search.tavilyApiUrl, ...deps }),
};
