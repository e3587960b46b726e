import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepForSites, parseSiteOperators } from './scripted-provider-server';
import { answerDelay } from '../support/loopback';

export interface FakeWebPage {
  /** Loopback address the page lives on (127.0.0.2, 127.0.0.3, …): one registrable "domain" each. */
  host: string;
  path: string;
  title: string;
  paragraphs: string[];
  publishedDate?: string;
  /** A date only the page's HTML carries (`article:published_time`), not its search result. */
  metaPublishedDate?: string;
}

export interface FakeWeb {
  /** SearxNG-shaped search: `GET ${searchUrl}?q=…&format=json`. */
  readonly searchUrl: string;
  /** The URL a page is served at. */
  urlOf(page: FakeWebPage): string;
  pageLatencyMs: number;
  searchLatencyMs: number;
  /** While true, every search answers 500 (a search engine that is down: runs fail in their search). */
  failSearch: boolean;
  /** `urls`: each page request's URL (`http://host:port/path`), in order, robots.txt included. */
  readonly requests: { search: number; pages: number; queries: string[]; urls: string[] };
  close(): Promise<void>;
}

const SMALL = new Set('the and with for into from are was were what which who how does did same has have'.split(' '));

function terms(text: string): string[] {
  return [
    ...new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 3 && !SMALL.has(w))),
  ];
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function pageHtml(page: FakeWebPage): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)}</title>${
    page.metaPublishedDate ? `<meta property="article:published_time" content="${page.metaPublishedDate}">` : ''
  }</head>
<body><nav><a href="/">Home</a></nav><main><h1>${escapeHtml(page.title)}</h1>
${page.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</main><footer>Footer text of the site.</footer></body></html>`;
}

/** The default ranking: a page matches a query holding at least half of its terms; more matched terms rank higher. */
export function matchingPages(pages: FakeWebPage[], query: string): FakeWebPage[] {
  const wanted = terms(query);
  return pages
    .map((page) => {
      const text = `${page.title} ${page.paragraphs.join(' ')}`.toLowerCase();
      const title = page.title.toLowerCase();
      const hits = wanted.filter((t) => text.includes(t)).length;
      const inTitle = wanted.filter((t) => title.includes(t)).length;
      return { page, hits, inTitle };
    })
    .filter((m) => wanted.length > 0 && m.hits / wanted.length >= 0.5)
    .sort((a, b) => b.hits - a.hits || b.inTitle - a.inTitle || a.page.title.localeCompare(b.page.title))
    .map(({ page }) => page);
}

/**
 * A loopback web: every page is served over HTTP on its own loopback host (so pages on 127.0.0.2 and
 * 127.0.0.3 are different domains), and a search engine on 127.0.0.1 answers in SearxNG's JSON shape
 * (`results[]` with url, title, content: the first 200 characters of the page's text, publishedDate), at most
 * 10 results a query, ranked by `rank` (default: `matchingPages`); `site:`/`-site:` operators in the query
 * restrict the results' hosts.
 */
export async function startFakeWeb(options: {
  pages: FakeWebPage[];
  pageLatencyMs?: number;
  rank?: (query: string) => FakeWebPage[];
}): Promise<FakeWeb> {
  const rank = options.rank ?? ((query: string) => matchingPages(options.pages, query));
  const state = {
    pageLatencyMs: options.pageLatencyMs ?? 0,
    searchLatencyMs: 0,
    failSearch: false,
    requests: { search: 0, pages: 0, queries: [] as string[], urls: [] as string[] },
  };
  const hosts = [...new Set(options.pages.map((p) => p.host))];
  // Pages by host and path as a request carries it (percent-encoded, as a client sends "/euromarché").
  const byPath = new Map(options.pages.map((p) => [`${p.host}${new URL(p.path, 'http://fake').pathname}`, p]));
  const servers: http.Server[] = [];
  const ports = new Map<string, number>();

  for (const host of hosts) {
    const server = http.createServer((req, res) => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        state.requests.pages++;
        state.requests.urls.push(`http://${host}:${ports.get(host)}${url.pathname}`);
        await answerDelay(state.pageLatencyMs, res);
        if (res.destroyed) return;
        if (url.pathname === '/robots.txt') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
          return;
        }
        const page = byPath.get(`${host}${url.pathname}`);
        if (!page) {
          res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml(page));
      })().catch(() => res.destroy());
    });
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    ports.set(host, (server.address() as AddressInfo).port);
    servers.push(server);
  }
  const urlOf = (page: FakeWebPage) => `http://${page.host}:${ports.get(page.host)}${page.path}`;

  const search = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname !== '/search' || url.searchParams.get('format') !== 'json') {
        res.writeHead(404).end();
        return;
      }
      state.requests.search++;
      await answerDelay(state.searchLatencyMs, res);
      if (res.destroyed) return;
      if (state.failSearch) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":"engine down"}');
        return;
      }
      const q = url.searchParams.get('q') ?? '';
      state.requests.queries.push(q);
      // Like the engines behind SearxNG, `site:`/`-site:` operators restrict the hosts.
      const sites = parseSiteOperators(q);
      const ranked = rank(sites.query).map((page) => ({ page, url: urlOf(page) }));
      const results = keepForSites(ranked, sites)
        .slice(0, 10)
        .map(({ page, url: pageUrl }) => ({
          url: pageUrl,
          title: page.title,
          content: page.paragraphs[0]?.slice(0, 200) ?? '',
          publishedDate: page.publishedDate ?? null,
          engine: 'fake',
        }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ query: q, number_of_results: results.length, results }));
    })().catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => search.listen(0, '127.0.0.1', resolve));
  servers.push(search);
  const searchUrl = `http://127.0.0.1:${(search.address() as AddressInfo).port}/search`;

  return Object.assign(state, {
    searchUrl,
    urlOf,
    close: async () => {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections();
              s.close(() => resolve());
            }),
        ),
      );
    },
  });
}
