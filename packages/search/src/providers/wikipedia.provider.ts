import { RetryableResponseError } from '../provider-http';
import { isoDate, plainSnippet } from '../html-text';
import { primaryLanguage } from '../language';
import { SearchProviderError, type SearchHit, type SearchProvider } from '../search-provider';
import {
  clampLimit,
  createRemoteProvider,
  type RemoteProviderDeps,
  type SearchProviderRegistration,
} from './provider-deps';

const PROVIDER = 'wikipedia';

/** The edition used when the run's language is not a language code (the service's default language). */
export const FALLBACK_WIKIPEDIA_LANGUAGE = 'de';

/**
 * The Wikipedia edition for a run's language: its primary subtag when that is 2 or 3 letters ("de-AT"
 * gives "de", "pt-BR" gives "pt", "zh-Hant" gives "zh"), otherwise "de". Only [a-z]{2,3} ever reaches a
 * host name, so a language cannot steer requests to another host.
 */
export function wikipediaLanguage(language: string | null | undefined): string {
  return primaryLanguage(language) ?? FALLBACK_WIKIPEDIA_LANGUAGE;
}

/**
 * The MediaWiki API for a run: `https://<lang>.wikipedia.org/w/api.php` by default; WIKIPEDIA_API_URL
 * replaces it, with `{lang}` in it replaced by the edition (e.g. `http://mirror.local/{lang}/w/api.php`);
 * without `{lang}` every run uses that one wiki.
 */
export function wikipediaApiUrl(template: string | undefined, language: string | null | undefined): string {
  const lang = wikipediaLanguage(language);
  if (!template) return `https://${lang}.wikipedia.org/w/api.php`;
  return template.replace(/\{lang\}/g, lang);
}

/** Where the wiki's articles live, from its API address (`…/w/api.php` -> `…/wiki/`). */
export function wikipediaArticleBase(apiUrl: string): string {
  const url = new URL(apiUrl);
  const path = url.pathname.endsWith('/w/api.php') ? url.pathname.slice(0, -'w/api.php'.length) : '/';
  return `${url.origin}${path}wiki/`;
}

export function wikipediaArticleUrl(apiUrl: string, title: string): string {
  // MediaWiki article paths keep ':' and '/' readable (Portal:X, A/B) and use '_' for spaces.
  const path = encodeURIComponent(title.replace(/ /g, '_')).replace(/%3A/gi, ':').replace(/%2F/gi, '/');
  return `${wikipediaArticleBase(apiUrl)}${path}`;
}

interface MediaWikiSearchBody {
  error?: { code?: unknown; info?: unknown };
  query?: { search?: Array<{ title?: unknown; snippet?: unknown; timestamp?: unknown }> };
}

// API errors that go away by themselves (replication lag, per-user rate limits, read-only maintenance).
const TRANSIENT_API_ERRORS = new Set(['maxlag', 'ratelimited', 'readonly', 'internal_api_error_DBQueryError']);

export interface WikipediaProviderOptions extends RemoteProviderDeps {
  /** WIKIPEDIA_API_URL (may hold `{lang}`); unset means the public Wikipedia of the run's language. */
  apiUrl?: string;
}

/**
 * MediaWiki full-text search (`action=query&list=search`) on the run's language edition. No key.
 * published_at is the timestamp MediaWiki reports for a hit: the time of the article's latest revision,
 * which is the date of the text the fetch step will read.
 */
export function createWikipediaProvider(options: WikipediaProviderOptions): SearchProvider {
  return createRemoteProvider({
    name: PROVIDER,
    deps: options,
    request: (query, { language, limit }) => ({
      method: 'GET',
      url: wikipediaApiUrl(options.apiUrl, language),
      params: {
        action: 'query',
        list: 'search',
        srsearch: query,
        srlimit: clampLimit(limit, 50),
        srprop: 'snippet|timestamp',
        format: 'json',
        utf8: 1,
      },
    }),
    parse: (body, request): SearchHit[] => {
      const data = body as MediaWikiSearchBody;
      if (!data || typeof data !== 'object') throw new Error('not an object');
      if (data.error) throw apiError(data.error);
      const results = data.query?.search;
      if (!Array.isArray(results)) throw new Error('no query.search');
      return results
        .filter(
          (r): r is { title: string; snippet?: unknown; timestamp?: unknown } =>
            typeof r?.title === 'string' && r.title !== '',
        )
        .map((r, i) => ({
          url: wikipediaArticleUrl(request.url, r.title),
          title: r.title,
          snippet: plainSnippet(r.snippet),
          published_at: isoDate(r.timestamp),
          provider: PROVIDER,
          rank: i + 1,
        }));
    },
  });
}

/** A MediaWiki API error: retried when it goes away by itself, otherwise the provider's refusal. */
function apiError(error: NonNullable<MediaWikiSearchBody['error']>): Error {
  const code = String(error.code ?? 'unknown');
  const info = typeof error.info === 'string' ? error.info : code;
  if (TRANSIENT_API_ERRORS.has(code)) return new RetryableResponseError(`API error ${code}`);
  return new SearchProviderError(
    PROVIDER,
    'rejected',
    `refused the request (API error ${code}: ${info.slice(0, 160)})`,
  );
}

/** SEARCH_PROVIDER=wikipedia (the default): needs nothing; WIKIPEDIA_API_URL for another wiki. */
export const wikipediaRegistration: SearchProviderRegistration = {
  missingSetting: () => undefined,
  endpoint: (search) => wikipediaApiUrl(search.wikipediaApiUrl, undefined),
  create: (search, deps) => createWikipediaProvider({ apiUrl: search.wikipediaApiUrl, ...deps }),
};
