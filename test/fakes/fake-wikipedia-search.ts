import {
  escapeHtml,
  highlight,
  matchDocuments,
  startScriptedProviderServer,
  type FakeDocument,
  type FakeProviderServer,
} from './scripted-provider-server';

export interface FakeWikipediaSearch extends FakeProviderServer {
  /** WIKIPEDIA_API_URL with the language placeholder: `${origin}/{lang}/w/api.php`. */
  readonly apiUrlTemplate: string;
  /** The language editions asked, in request order. */
  readonly languages: string[];
}

/** MediaWiki's maxlag refusal (HTTP 200 with an error object and Retry-After), which clients should retry. */
export const MEDIAWIKI_MAXLAG = {
  status: 200,
  headers: { 'Retry-After': '1', 'X-Database-Lag': '6', 'content-type': 'application/json; charset=utf-8' },
  body: {
    error: { code: 'maxlag', info: 'Waiting for 10.64.0.1: 6 seconds lagged.', host: '10.64.0.1', lag: 6 },
    servedby: 'mw1400',
  },
};

/**
 * A loopback MediaWiki search API per language edition: `GET /<lang>/w/api.php?action=query&list=search
 * &srsearch=…&format=json`, answering `{batchcomplete, query: {searchinfo, search: [{ns, title, pageid,
 * snippet, timestamp}]}}` with `<span class="searchmatch">` highlighting and HTML entities, as MediaWiki does.
 */
export async function startFakeWikipediaSearch(options: {
  documents: Record<string, FakeDocument[]>;
}): Promise<FakeWikipediaSearch> {
  const languages: string[] = [];
  const server = await startScriptedProviderServer((req) => {
    const match = /^\/([a-z-]+)\/w\/api\.php$/.exec(req.path);
    if (!match) return { status: 404, body: 'Not Found' };
    languages.push(match[1]!);
    const q = req.query;
    if (q.get('action') !== 'query' || q.get('list') !== 'search' || q.get('format') !== 'json') {
      return { status: 200, body: { error: { code: 'badvalue', info: 'Unrecognized value for parameter "action".' } } };
    }
    const srsearch = q.get('srsearch');
    if (!srsearch) {
      return { status: 200, body: { error: { code: 'missingparam', info: 'The "srsearch" parameter must be set.' } } };
    }
    const limit = Math.min(500, Number(q.get('srlimit') ?? 10));
    const matches = matchDocuments(options.documents[match[1]!] ?? [], srsearch);
    return {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: {
        batchcomplete: '',
        ...(matches.length > limit ? { continue: { sroffset: limit, continue: '-||' } } : {}),
        query: {
          searchinfo: { totalhits: matches.length },
          search: matches.slice(0, limit).map((doc, i) => ({
            ns: 0,
            title: doc.title,
            pageid: 100 + i,
            snippet: highlight(escapeHtml(doc.text.slice(0, 180)), srsearch, '<span class="searchmatch">', '</span>'),
            timestamp: doc.date ?? '2024-05-01T08:30:00Z',
          })),
        },
      },
    };
  });
  return Object.assign(server, { apiUrlTemplate: `${server.origin}/{lang}/w/api.php`, languages });
}
