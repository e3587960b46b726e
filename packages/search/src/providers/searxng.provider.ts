import { requestProviderJson } from '../provider-http';
import { isoDate, plainSnippet } from '../html-text';
import { languageWithRegion } from '../language';
import type { SearchHit, SearchProvider } from '../search-provider';
import { clampLimit, retryPolicy, type RemoteProviderDeps } from './provider-deps';

const PROVIDER = 'searxng';

interface SearxngBody {
  results?: Array<{ url?: unknown; title?: unknown; content?: unknown; publishedDate?: unknown; engine?: unknown }>;
}

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
  const policy = retryPolicy(options.policy);
  const endpoint = `${options.baseUrl.replace(/\/+$/, '')}/search`;
  return {
    name: PROVIDER,
    async search(query, { language, limit, signal }) {
      return requestProviderJson(
        {
          provider: PROVIDER,
          policy,
          logger: options.logger,
          describeError: (status) =>
            status === 403
              ? { kind: 'rejected', cause: 'HTTP 403: is the json format enabled in search.formats?' }
              : undefined,
        },
        {
          method: 'GET',
          url: endpoint,
          params: { q: query, format: 'json', pageno: 1, language: languageWithRegion(language) ?? 'all' },
        },
        signal,
        (body): SearchHit[] => {
          const results = (body as SearxngBody)?.results;
          if (!Array.isArray(results)) throw new Error('no results');
          return results
            .filter(
              (r): r is { url: string; title?: unknown; content?: unknown; publishedDate?: unknown } =>
                typeof r?.url === 'string' && r.url !== '',
            )
            .slice(0, clampLimit(limit, 100))
            .map((r, i) => ({
              url: r.url,
              title: plainSnippet(r.title) || r.url,
              snippet: plainSnippet(r.content),
              published_at: isoDate(r.publishedDate),
              provider: PROVIDER,
              rank: i + 1,
            }));
        },
      );
    },
  };
}
