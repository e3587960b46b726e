import {
  keepForSites,
  matchDocuments,
  parseSiteOperators,
  startScriptedProviderServer,
  type FakeDocument,
  type FakeProviderServer,
} from './scripted-provider-server';

export interface FakeSearxng extends FakeProviderServer {
  /** SEARXNG_URL for the provider. */
  readonly baseUrl: string;
}

/** SearxNG's limiter answer. */
export const SEARXNG_TOO_MANY = { status: 429, headers: { 'Retry-After': '1' }, body: 'Too Many Requests' };

/**
 * A loopback SearxNG: `GET /search?q=…&format=json` answering `{query, number_of_results, results:
 * [{url, title, content, engine, engines, publishedDate, …}], answers, corrections, infoboxes,
 * suggestions, unresponsive_engines}`. Like an instance without `json` in search.formats, it answers
 * 403 when `jsonEnabled` is false.
 */
export async function startFakeSearxng(options: {
  documents: FakeDocument[];
  jsonEnabled?: boolean;
}): Promise<FakeSearxng> {
  const server = await startScriptedProviderServer((req) => {
    if (req.path !== '/search') return { status: 404, body: 'Not Found' };
    if (req.query.get('format') !== 'json' || options.jsonEnabled === false) {
      return {
        status: 403,
        headers: { 'content-type': 'text/html' },
        body: '<html><body><h1>403 Forbidden</h1></body></html>',
      };
    }
    const q = req.query.get('q') ?? '';
    // The engines behind SearxNG read `site:`/`-site:` operators.
    const sites = parseSiteOperators(q);
    const results = keepForSites(matchDocuments(options.documents, sites.query), sites).map((doc, i) => {
      const url = new URL(doc.url);
      return {
        url: doc.url,
        title: doc.title,
        content: doc.text.slice(0, 250),
        publishedDate: doc.date ?? null,
        thumbnail: '',
        engine: i % 2 === 0 ? 'duckduckgo' : 'wikipedia',
        template: 'default.html',
        parsed_url: [url.protocol.replace(':', ''), url.host, url.pathname, '', url.search.replace('?', ''), ''],
        img_src: '',
        priority: '',
        engines: ['duckduckgo', 'wikipedia'],
        positions: [i + 1],
        score: 2 / (i + 1),
        category: 'general',
      };
    });
    return {
      status: 200,
      body: {
        query: q,
        number_of_results: 0,
        results,
        answers: [],
        corrections: [],
        infoboxes: [],
        suggestions: [],
        unresponsive_engines: [],
      },
    };
  });
  return Object.assign(server, { baseUrl: server.origin });
}
