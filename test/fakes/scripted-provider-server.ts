import http from 'node:http';
import { answerDelay, listenOnLoopback } from '../support/loopback';

/** A request as the fake saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One scripted answer in place of the provider's normal one. */
export type ScriptedAnswer =
  | { status: number; headers?: Record<string, string>; body?: string | object; delayMs?: number }
  /** Answer normally, but only after this delay (ms). */
  | { normalAfterMs: number }
  /** Close the socket without an answer. */
  | 'drop';

export interface FakeDocument {
  url: string;
  title: string;
  text: string;
  /** Provider-specific date text (MediaWiki timestamp, Brave page_age, …). */
  date?: string;
}

export interface FakeProviderServer {
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** Queues answers for the next requests, in order; when the queue is empty the fake answers normally. */
  script(...answers: ScriptedAnswer[]): void;
  close(): Promise<void>;
}

export type NormalAnswer = { status: number; headers?: Record<string, string>; body: string | object };

/** Documents holding any of the query's terms, most matching terms first (a crude relevance order). */
export function matchDocuments(documents: FakeDocument[], query: string): FakeDocument[] {
  const terms = [...new Set((query.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => t.length >= 3))];
  return documents
    .map((doc) => {
      const text = `${doc.title} ${doc.text}`.toLowerCase();
      return { doc, hits: terms.filter((t) => text.includes(t)).length };
    })
    .filter((m) => m.hits > 0)
    .sort((a, b) => b.hits - a.hits)
    .map((m) => m.doc);
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Wraps the query's terms in `tag` inside already-escaped HTML (how engines highlight snippets). */
export function highlight(html: string, query: string, open: string, close: string): string {
  let out = html;
  for (const term of (query.match(/[\p{L}\p{N}]+/gu) ?? []).filter((t) => t.length >= 3)) {
    out = out.replace(new RegExp(`\\b(${term})\\b`, 'gi'), `${open}$1${close}`);
  }
  return out;
}

/**
 * A loopback HTTP server for one search provider: `normal` answers in the provider's documented shape,
 * scripted answers (errors, rate limits, slowness, dropped connections) replace it request by request.
 */
export async function startScriptedProviderServer(
  normal: (request: RecordedRequest) => NormalAnswer,
): Promise<FakeProviderServer> {
  const queue: ScriptedAnswer[] = [];
  const requests: RecordedRequest[] = [];
  const send = (
    res: http.ServerResponse,
    answer: { status: number; headers?: Record<string, string>; body?: string | object },
  ) => {
    const body =
      answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    const headers = {
      'content-type': typeof answer.body === 'object' ? 'application/json' : 'text/plain; charset=utf-8',
      ...answer.headers,
    };
    res.writeHead(answer.status, headers).end(body);
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        const recorded: RecordedRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        };
        requests.push(recorded);
        const scripted = queue.shift();
        if (scripted === 'drop') {
          req.socket.destroy();
          return;
        }
        if (scripted && 'normalAfterMs' in scripted) {
          await answerDelay(scripted.normalAfterMs, res);
          if (res.destroyed || res.writableEnded) return;
          send(res, normal(recorded));
          return;
        }
        if (scripted) {
          if (scripted.delayMs) await answerDelay(scripted.delayMs, res);
          if (res.destroyed || res.writableEnded) return;
          send(res, scripted);
          return;
        }
        send(res, normal(recorded));
      })().catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
      });
    });
  });
  const { origin, close } = await listenOnLoopback(server);
  return {
    origin,
    requests,
    script: (...answers) => queue.push(...answers),
    close,
  };
}

/** A query's `site:` and `-site:` operators (`(site:a OR site:b)` too), and the query without them. */
export interface SiteOperators {
  query: string;
  include: string[];
  exclude: string[];
}

/** Reads the `site:`/`-site:` operators search engines take out of `q`. */
export function parseSiteOperators(q: string): SiteOperators {
  const include: string[] = [];
  const exclude: string[] = [];
  const rest = q.replace(/\(?(-?)site:([^\s()]+)\)?/gi, (_m, minus: string, host: string) => {
    (minus ? exclude : include).push(host.toLowerCase());
    return ' ';
  });
  // What is left of `(site:a OR site:b)`: the ORs between the operators.
  const query = rest
    .replace(/(^|\s)OR(?=\s|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { query, include, exclude };
}

/** Whether `url`'s host is, or is under, one of `hosts`. */
export function onHosts(url: string, hosts: readonly string[]): boolean {
  const host = new URL(url).hostname.toLowerCase();
  return hosts.some((name) => host === name || host.endsWith(`.${name}`));
}

/** The documents an engine keeps for the operators: on an included host (when any), on no excluded one. */
export function keepForSites<T extends { url: string }>(docs: readonly T[], sites: SiteOperators): T[] {
  return docs.filter(
    (doc) => (sites.include.length === 0 || onHosts(doc.url, sites.include)) && !onHosts(doc.url, sites.exclude),
  );
}
