import { errorTextOf, requestProviderJson, safeText } from '../provider-http';
import { isoDate, plainSnippet } from '../html-text';
import type { SearchHit, SearchProvider } from '../search-provider';
import { clampLimit, retryPolicy, type RemoteProviderDeps } from './provider-deps';

const PROVIDER = 'tavily';

export const TAVILY_API_URL = 'https://api.tavily.com/search';

interface TavilyBody {
  results?: Array<{ url?: unknown; title?: unknown; content?: unknown; published_date?: unknown; score?: unknown }>;
}

export interface TavilyProviderOptions extends RemoteProviderDeps {
  apiKey: string;
  /** TAVILY_API_URL: the search endpoint (tests point it at a loopback fake). */
  apiUrl?: string;
}

/**
 * Tavily Search (`POST /search`, key as `Authorization: Bearer`). Results come in Tavily's relevance
 * order; `content` is the snippet. 432/433 mean the plan's or pay-as-you-go limit is spent (not retried).
 * Tavily takes no language parameter; the query's own language steers it.
 */
export function createTavilyProvider(options: TavilyProviderOptions): SearchProvider {
  const policy = retryPolicy(options.policy);
  const secrets = [options.apiKey];
  return {
    name: PROVIDER,
    async search(query, { limit, signal }) {
      return requestProviderJson(
        {
          provider: PROVIDER,
          policy,
          logger: options.logger,
          secrets,
          describeError: (status, body) => {
            const detail = errorTextOf(body);
            if (status === 432 || status === 433) {
              return {
                kind: 'quota',
                cause: `HTTP ${status}: ${detail ? safeText(detail, secrets) : 'usage limit exceeded'}`,
              };
            }
            return undefined;
          },
        },
        {
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
          },
          followRedirects: false,
        },
        signal,
        (body): SearchHit[] => {
          const results = (body as TavilyBody)?.results;
          if (!Array.isArray(results)) throw new Error('no results');
          return results
            .filter(
              (r): r is { url: string; title?: unknown; content?: unknown; published_date?: unknown } =>
                typeof r?.url === 'string' && r.url !== '',
            )
            .map((r, i) => ({
              url: r.url,
              title: plainSnippet(r.title) || r.url,
              snippet: plainSnippet(r.content),
              published_at: isoDate(r.published_date),
              provider: PROVIDER,
              rank: i + 1,
            }));
        },
      );
    },
  };
}
