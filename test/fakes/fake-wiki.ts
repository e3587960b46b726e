import http from 'node:http';
import { answerDelay, listenOnLoopback } from '../support/loopback';

export interface FakeWikiPage {
  title: string;
  paragraphs: string[];
}

export interface FakeWiki {
  /** The search API, as WIKIPEDIA_API_URL: `${origin}/w/api.php`. */
  readonly apiUrl: string;
  readonly origin: string;
  /** Delay before each page answer (ms); change it at any time. */
  pageLatencyMs: number;
  /** Delay before each search answer (ms). */
  searchLatencyMs: number;
  /** When set, the search API answers 500. */
  failSearch: boolean;
  readonly requests: { search: number; pages: number };
  /** Every `srsearch` the search API was asked, in order. */
  readonly searched: string[];
  close(): Promise<void>;
}

const IGNORED = new Set([
  'how',
  'does',
  'what',
  'the',
  'and',
  'with',
  'for',
  'into',
  'from',
  'are',
  'is',
  'in',
  'of',
  'a',
  'an',
]);

function terms(text: string): string[] {
  return [
    ...new Set((text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length >= 3 && !IGNORED.has(w))),
  ];
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function pageHtml(page: FakeWikiPage): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.title)} - Wikipedia</title>
<style>body { font-family: sans-serif; }</style><script>window.tracking = "ignore me";</script></head>
<body><nav><a href="/wiki/Main_Page">Main page</a> &middot; <a href="/wiki/Special:Random">Random article</a></nav>
<main><h1>${escapeHtml(page.title)}</h1>
${page.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</main><footer>Text is available under the Creative Commons Attribution-ShareAlike License.</footer></body></html>`;
}

function snippet(page: FakeWikiPage, wanted: string[]): string {
  const sentence =
    page.paragraphs.find((p) => wanted.some((t) => p.toLowerCase().includes(t))) ?? page.paragraphs[0] ?? '';
  let html = escapeHtml(sentence.slice(0, 150));
  for (const t of wanted) html = html.replace(new RegExp(`\\b(${t})\\b`, 'gi'), '<span class="searchmatch">$1</span>');
  return html;
}

/**
 * A loopback MediaWiki: `GET /w/api.php?action=query&list=search&srsearch=…&format=json&srlimit=…`
 * answers in MediaWiki's documented JSON shape, and `GET /wiki/<Title>` serves the page as HTML.
 * A page matches when it holds at least 60% of the query's terms (roughly CirrusSearch's AND).
 */
export async function startFakeWiki(options: {
  pages: FakeWikiPage[];
  pageLatencyMs?: number;
  searchLatencyMs?: number;
}): Promise<FakeWiki> {
  const byTitle = new Map(options.pages.map((p) => [p.title.replace(/ /g, '_'), p]));
  const state = {
    pageLatencyMs: options.pageLatencyMs ?? 0,
    searchLatencyMs: options.searchLatencyMs ?? 0,
    failSearch: false,
    requests: { search: 0, pages: 0 },
    searched: [] as string[],
  };
  const server = http.createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname === '/w/api.php') {
        state.requests.search++;
        const asked = url.searchParams.get('srsearch');
        if (asked) state.searched.push(asked);
        await answerDelay(state.searchLatencyMs, res);
        if (res.destroyed) return;
        if (state.failSearch) {
          res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal error');
          return;
        }
        const q = url.searchParams;
        if (
          q.get('action') !== 'query' ||
          q.get('list') !== 'search' ||
          q.get('format') !== 'json' ||
          !q.get('srsearch')
        ) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 'badparams', info: 'Unrecognized parameters.' } }));
          return;
        }
        const wanted = terms(q.get('srsearch')!);
        const limit = Math.min(50, Math.max(1, Number(q.get('srlimit') ?? 10) || 10));
        const matches = options.pages
          .map((page) => {
            const text = `${page.title} ${page.paragraphs.join(' ')}`.toLowerCase();
            return { page, hits: wanted.filter((t) => text.includes(t)).length };
          })
          .filter((m) => wanted.length > 0 && m.hits / wanted.length >= 0.6)
          .sort((a, b) => b.hits - a.hits || a.page.title.localeCompare(b.page.title));
        const body = {
          batchcomplete: '',
          ...(matches.length > limit ? { continue: { sroffset: limit, continue: '-||' } } : {}),
          query: {
            searchinfo: { totalhits: matches.length },
            search: matches.slice(0, limit).map(({ page }, i) => {
              const text = page.paragraphs.join(' ');
              return {
                ns: 0,
                title: page.title,
                pageid: 1000 + options.pages.indexOf(page),
                size: Buffer.byteLength(pageHtml(page)),
                wordcount: text.split(/\s+/).length,
                snippet: snippet(page, wanted),
                timestamp: `2024-0${(i % 9) + 1}-15T12:00:00Z`,
              };
            }),
          },
        };
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(body));
        return;
      }
      if (url.pathname.startsWith('/wiki/')) {
        state.requests.pages++;
        await answerDelay(state.pageLatencyMs, res);
        if (res.destroyed) return;
        const page = byTitle.get(decodeURIComponent(url.pathname.slice('/wiki/'.length)));
        if (!page) {
          res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>Not found</body></html>');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/html; charset=UTF-8' });
        res.end(pageHtml(page));
        return;
      }
      res.writeHead(404).end();
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  const { origin, close } = await listenOnLoopback(server);
  return Object.assign(state, {
    apiUrl: `${origin}/w/api.php`,
    origin,
    close,
  });
}
