import { languageWithRegion, primaryLanguage } from '../language';
import type { SearchFilter, SearchProvider } from '../search-provider';
import { withSiteOperators } from '../site-operators';
import { clampLimit, createKeyedProvider, hitsOf } from './provider-deps';
import type { KeyedProviderOptions, SearchProviderRegistration } from './provider-deps';

const PROVIDER = 'brave';

export const BRAVE_API_URL = 'https://api.search.brave.com/res/v1/web/search';

// Brave's search_lang values (its documented list); anything else gets a 422, so unknown languages are not sent.
const BRAVE_LANGUAGES = new Set([
  'ar',
  'eu',
  'bn',
  'bg',
  'ca',
  'zh-hans',
  'zh-hant',
  'hr',
  'cs',
  'da',
  'nl',
  'en',
  'en-gb',
  'et',
  'fi',
  'fr',
  'gl',
  'de',
  'gu',
  'he',
  'hi',
  'hu',
  'is',
  'it',
  'jp',
  'kn',
  'ko',
  'lv',
  'lt',
  'ms',
  'ml',
  'mr',
  'nb',
  'pl',
  'pt-br',
  'pt-pt',
  'pa',
  'ro',
  'ru',
  'sr',
  'sk',
  'sl',
  'es',
  'sv',
  'ta',
  'te',
  'th',
  'tr',
  'uk',
  'vi',
]);

/** Brave's search_lang for a run language, or undefined to let Brave decide. */
export function braveSearchLanguage(language: string): string | undefined {
  const full = languageWithRegion(language);
  const primary = primaryLanguage(language);
  if (!full || !primary) return undefined;
  if (BRAVE_LANGUAGES.has(full)) return full;
  const aliases: Record<string, string> = { ja: 'jp', zh: 'zh-hans', pt: 'pt-pt', no: 'nb', nn: 'nb' };
  const alias = full === 'zh-tw' || full === 'zh-hk' ? 'zh-hant' : full === 'en-uk' ? 'en-gb' : aliases[primary];
  if (alias) return alias;
  return BRAVE_LANGUAGES.has(primary) ? primary : undefined;
}

export type BraveProviderOptions = KeyedProviderOptions;

/** Brave's documented query limits. */
const BRAVE_QUERY_LIMITS = { maxChars: 400, maxWords: 50 };

/**
 * Brave's `freshness` for a filter's published_after: the range from that day to today
 * (`YYYY-MM-DDtoYYYY-MM-DD`), or undefined without one (or with a day still to come).
 */
export function braveFreshness(filter: SearchFilter | undefined, now = new Date()): string | undefined {
  const after = filter?.published_after;
  const today = now.toISOString().slice(0, 10);
  return after && after <= today ? `${after}to${today}` : undefined;
}

/**
 * Brave Web Search API (`GET /res/v1/web/search`, key in `X-Subscription-Token`). Descriptions carry
 * `<strong>` highlighting, removed here. published_at is `page_age` (Brave's date of the page) when given,
 * else `age` when it is an absolute date. On 429 Brave's X-RateLimit-Reset says how long to wait. A run's
 * source controls go as `site:`/`-site:` operators in the query and published_after as `freshness`.
 */
export function createBraveProvider(options: BraveProviderOptions): SearchProvider {
  return createKeyedProvider(options, {
    name: PROVIDER,
    describeError: (status, body, detail) => {
      const code = (body as { error?: { code?: unknown } })?.error?.code;
      if (status === 401 || status === 403 || (typeof code === 'string' && /TOKEN|AUTH/i.test(code))) {
        return { kind: 'auth', cause: `HTTP ${status}${typeof code === 'string' ? ` ${code}` : ''}` };
      }
      if (typeof code === 'string' && /QUOTA|PLAN|SUBSCRIPTION/i.test(code) && status !== 429) {
        return { kind: 'quota', cause: `HTTP ${status} ${code}${detail !== undefined ? `: ${detail}` : ''}` };
      }
      return undefined;
    },
    request: (query, { language, limit, filter }) => ({
      method: 'GET',
      url: options.apiUrl ?? BRAVE_API_URL,
      params: {
        q: withSiteOperators(query, filter, BRAVE_QUERY_LIMITS),
        count: clampLimit(limit, 20),
        search_lang: braveSearchLanguage(language),
        freshness: braveFreshness(filter),
      },
      headers: { 'X-Subscription-Token': options.apiKey, 'Accept-Encoding': 'gzip' },
    }),
    parse: (body) => {
      if (!body || typeof body !== 'object') throw new Error('not an object');
      // A query Brave has no web results for comes back without the `web` section.
      const results = (body as { web?: { results?: unknown } }).web?.results ?? [];
      if (!Array.isArray(results)) throw new Error('web.results is not a list');
      return hitsOf(PROVIDER, results, { snippet: 'description', dates: ['page_age', 'age'] });
    },
  });
}

/** SEARCH_PROVIDER=brave: BRAVE_API_KEY, and BRAVE_API_URL for another endpoint. */
export const braveRegistration: SearchProviderRegistration = {
  missingSetting: (search) => (search.braveApiKey ? undefined : 'BRAVE_API_KEY'),
  endpoint: (search) => search.braveApiUrl ?? BRAVE_API_URL,
  create: (search, deps) => createBraveProvider({ apiKey: search.braveApiKey!, apiUrl: search.braveApiUrl, ...deps }),
};
