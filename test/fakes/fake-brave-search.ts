import {
  escapeHtml,
  highlight,
  keepForSites,
  matchDocuments,
  parseSiteOperators,
  startScriptedProviderServer,
  type FakeDocument,
  type FakeProviderServer,
} from './scripted-provider-server';

export interface FakeBraveSearch extends FakeProviderServer {
  /** BRAVE_API_URL for the provider. */
  readonly apiUrl: string;
}

function braveError(status: number, code: string, detail: string, meta: Record<string, unknown> = {}) {
  return {
    type: 'ErrorResponse',
    error: { id: 'c9f1d2a4-0000-4000-8000-000000000000', status, code, detail, meta },
    time: 1_726_000_000,
  };
}

/** Brave's 429: its error body plus the X-RateLimit-* headers (per-second window spent). */
export function braveRateLimited(resetSeconds = 1): { status: number; headers: Record<string, string>; body: object } {
  return {
    status: 429,
    headers: {
      'X-RateLimit-Limit': '1, 15000',
      'X-RateLimit-Policy': '1;w=1, 15000;w=2592000',
      'X-RateLimit-Remaining': '0, 14000',
      'X-RateLimit-Reset': `${resetSeconds}, 1419704`,
    },
    body: braveError(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.', {
      plan: 'Free',
      rate_limit: 1,
      rate_current: 2,
      component: 'rate_limiter',
    }),
  };
}

/** Brave's answer when the month's quota is spent: the monthly window must reset first. */
export function braveQuotaSpent(): { status: number; headers: Record<string, string>; body: object } {
  return {
    status: 429,
    headers: {
      'X-RateLimit-Limit': '1, 15000',
      'X-RateLimit-Remaining': '1, 0',
      'X-RateLimit-Reset': '1, 1419704',
    },
    body: braveError(429, 'RATE_LIMITED', 'Request rate limit exceeded for plan.', { component: 'rate_limiter' }),
  };
}

/**
 * A loopback Brave Web Search API: `GET /res/v1/web/search?q=…&count=…` with `X-Subscription-Token`,
 * answering `{type: "search", query, web: {type: "search", results: [...]}}` as Brave documents it;
 * a wrong token gets Brave's 422 SUBSCRIPTION_TOKEN_INVALID error body. It honours `site:`/`-site:` operators
 * in `q` and a `freshness` date range (pages without a date pass).
 */
export async function startFakeBraveSearch(options: {
  apiKey: string;
  documents: FakeDocument[];
}): Promise<FakeBraveSearch> {
  const server = await startScriptedProviderServer((req) => {
    if (req.path !== '/res/v1/web/search') return { status: 404, body: braveError(404, 'NOT_FOUND', 'Not found') };
    if (req.headers['x-subscription-token'] !== options.apiKey) {
      return {
        status: 422,
        body: braveError(422, 'SUBSCRIPTION_TOKEN_INVALID', 'The provided subscription token is invalid.', {
          component: 'authentication',
        }),
      };
    }
    const q = req.query.get('q') ?? '';
    const count = Number(req.query.get('count') ?? 20);
    if (!q || !Number.isInteger(count) || count < 1 || count > 20) {
      return { status: 422, body: braveError(422, 'VALIDATION', 'Unable to validate request parameter(s)') };
    }
    // Like Brave, `site:`/`-site:` operators restrict the hosts and `freshness=<from>to<to>` the page dates.
    const sites = parseSiteOperators(q);
    const range = /^(\d{4}-\d{2}-\d{2})to(\d{4}-\d{2}-\d{2})$/.exec(req.query.get('freshness') ?? '');
    const matches = keepForSites(matchDocuments(options.documents, sites.query), sites)
      .filter((doc) => !range || !doc.date || doc.date.slice(0, 10) >= range[1]!)
      .slice(0, count);
    const body = {
      type: 'search',
      query: {
        original: q,
        show_strict_warning: false,
        is_navigational: false,
        spellcheck_off: true,
        more_results_available: false,
      },
      mixed: { type: 'mixed', main: matches.map((_, i) => ({ type: 'web', index: i, all: false })), top: [], side: [] },
      ...(matches.length > 0
        ? {
            web: {
              type: 'search',
              family_friendly: true,
              results: matches.map((doc) => {
                const url = new URL(doc.url);
                return {
                  type: 'search_result',
                  subtype: 'generic',
                  title: doc.title,
                  url: doc.url,
                  is_source_local: false,
                  is_source_both: false,
                  description: highlight(escapeHtml(doc.text.slice(0, 200)), q, '<strong>', '</strong>'),
                  ...(doc.date ? { page_age: doc.date, age: new Date(`${doc.date}Z`).toDateString() } : {}),
                  profile: { name: url.hostname, url: doc.url, long_name: url.hostname, img: '' },
                  language: 'en',
                  family_friendly: true,
                  meta_url: {
                    scheme: url.protocol.replace(':', ''),
                    netloc: url.host,
                    hostname: url.hostname,
                    favicon: '',
                    path: url.pathname,
                  },
                };
              }),
            },
          }
        : {}),
    };
    return { status: 200, headers: { 'X-RateLimit-Remaining': '1, 14000' }, body };
  });
  return Object.assign(server, { apiUrl: `${server.origin}/res/v1/web/search` });
}
