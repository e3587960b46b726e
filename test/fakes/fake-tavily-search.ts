import {
  keepForSites,
  matchDocuments,
  startScriptedProviderServer,
  type FakeDocument,
  type FakeProviderServer,
} from './scripted-provider-server';

export interface FakeTavilySearch extends FakeProviderServer {
  /** TAVILY_API_URL for the provider. */
  readonly apiUrl: string;
}

/** Tavily's error bodies: `{"detail": {"error": "…"}}`. */
export function tavilyError(status: number, error: string, headers: Record<string, string> = {}) {
  return { status, headers, body: { detail: { error } } };
}

export const TAVILY_RATE_LIMITED =
  'Your request has been blocked due to excessive requests. Please reduce rate of requests.';
export const TAVILY_PLAN_LIMIT =
  "This request exceeds your plan's set usage limit. Please upgrade your plan or contact support@tavily.com";

/**
 * A loopback Tavily Search API: `POST /search` with `Authorization: Bearer tvly-…` and a JSON body
 * `{query, max_results, …}`, answering `{query, answer, images, results: [{title, url, content, score,
 * raw_content, published_date?}], response_time}`; a wrong key gets Tavily's 401. It honours the body's
 * `include_domains`, `exclude_domains` and `start_date` (documents without a date pass).
 */
export async function startFakeTavilySearch(options: {
  apiKey: string;
  documents: FakeDocument[];
}): Promise<FakeTavilySearch> {
  const server = await startScriptedProviderServer((req) => {
    if (req.method !== 'POST' || req.path !== '/search') return tavilyError(404, 'Not Found');
    if (req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return tavilyError(401, 'Unauthorized: missing or invalid API key.');
    }
    let body: {
      query?: unknown;
      max_results?: unknown;
      include_domains?: unknown;
      exclude_domains?: unknown;
      start_date?: unknown;
    };
    try {
      body = JSON.parse(req.body) as typeof body;
    } catch {
      return tavilyError(400, 'Invalid JSON body');
    }
    if (typeof body.query !== 'string' || body.query === '') return tavilyError(400, 'Query is missing.');
    const max = typeof body.max_results === 'number' ? body.max_results : 5;
    if (max < 0 || max > 20) return tavilyError(400, 'max_results must be between 0 and 20.');
    const hosts = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
    const startDate = typeof body.start_date === 'string' ? body.start_date : null;
    const results = keepForSites(matchDocuments(options.documents, body.query), {
      query: body.query,
      include: hosts(body.include_domains),
      exclude: hosts(body.exclude_domains),
    })
      .filter((doc) => startDate === null || !doc.date || doc.date.slice(0, 10) >= startDate)
      .slice(0, max)
      .map((doc, i) => ({
        title: doc.title,
        url: doc.url,
        content: doc.text.slice(0, 300),
        score: Number((0.95 - i * 0.1).toFixed(4)),
        raw_content: null,
        ...(doc.date ? { published_date: doc.date } : {}),
      }));
    return {
      status: 200,
      body: {
        query: body.query,
        follow_up_questions: null,
        answer: null,
        images: [],
        results,
        response_time: 0.42,
        request_id: '123e4567-e89b-42d3-a456-426614174000',
      },
    };
  });
  return Object.assign(server, { apiUrl: `${server.origin}/search` });
}
