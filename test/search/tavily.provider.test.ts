import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTavilyProvider, SearchProviderError } from '@research/search';
import {
  startFakeTavilySearch,
  tavilyError,
  TAVILY_PLAN_LIMIT,
  TAVILY_RATE_LIMITED,
  type FakeTavilySearch,
} from '../fakes/fake-tavily-search';
import { fakeTimeoutsOnly, settlesBeforeNextTurn } from '../support/fake-timers';
import { captureLogger, FAST_POLICY, searchThroughOneRetry } from './support/capture-logger';

const KEY = 'tvly-dev-secretkey0123456789abcdef';

const DOCUMENTS = [
  {
    url: 'https://news.example.com/solar-record',
    title: 'Solar output hits a record',
    text: 'Solar panels produced a record share of electricity in spring.',
    date: 'Mon, 15 Apr 2024 09:00:00 GMT',
  },
  {
    url: 'https://example.org/solar',
    title: 'Solar power',
    text: 'Solar power is energy from the sun converted to electricity.',
  },
];

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('tavily search provider', () => {
  let fake: FakeTavilySearch;
  beforeAll(async () => {
    fake = await startFakeTavilySearch({ apiKey: KEY, documents: DOCUMENTS });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.requests.splice(0));

  it('posts the query with a bearer key and normalises results in Tavily order', async () => {
    const provider = createTavilyProvider({ apiKey: KEY, apiUrl: fake.apiUrl, logger: captureLogger().logger });
    const hits = await provider.search('solar electricity record', { language: 'en', limit: 30 });
    expect(hits).toEqual([
      {
        url: 'https://news.example.com/solar-record',
        title: 'Solar output hits a record',
        snippet: 'Solar panels produced a record share of electricity in spring.',
        published_at: '2024-04-15T09:00:00.000Z',
        provider: 'tavily',
        rank: 1,
      },
      {
        url: 'https://example.org/solar',
        title: 'Solar power',
        snippet: 'Solar power is energy from the sun converted to electricity.',
        published_at: null,
        provider: 'tavily',
        rank: 2,
      },
    ]);
    const request = fake.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(JSON.parse(request.body)).toMatchObject({
      query: 'solar electricity record',
      max_results: 20,
      search_depth: 'basic',
    });
  });

  it('honours Retry-After on 429 and then succeeds', async () => {
    fake.script(tavilyError(429, TAVILY_RATE_LIMITED, { 'Retry-After': '1' }));
    const { logger, lines } = captureLogger();
    const provider = createTavilyProvider({ apiKey: KEY, apiUrl: fake.apiUrl, logger, policy: FAST_POLICY });
    const { result: hits, waitedMs } = await searchThroughOneRetry(lines, () =>
      provider.search('solar', { language: 'en', limit: 5 }),
    );
    expect(waitedMs).toBeGreaterThanOrEqual(1000);
    expect(hits).toHaveLength(2);
    expect(fake.requests).toHaveLength(2);
  });

  it('gives up on repeated 429s with a rate-limit error naming the provider', async () => {
    const limited = tavilyError(429, TAVILY_RATE_LIMITED);
    fake.script(limited, limited, limited);
    const provider = createTavilyProvider({
      apiKey: KEY,
      apiUrl: fake.apiUrl,
      logger: captureLogger().logger,
      policy: FAST_POLICY,
    });
    const error = (await provider
      .search('solar', { language: 'en', limit: 5 })
      .catch((e: unknown) => e)) as SearchProviderError;
    expect(error.message).toBe('Search provider tavily is rate limiting requests: HTTP 429; gave up after 3 attempts');
    expect(error.kind).toBe('rate_limited');
  });

  it('does not retry when the plan limit is spent (432)', async () => {
    fake.script(tavilyError(432, TAVILY_PLAN_LIMIT));
    const provider = createTavilyProvider({
      apiKey: KEY,
      apiUrl: fake.apiUrl,
      logger: captureLogger().logger,
      policy: FAST_POLICY,
    });
    const error = (await provider
      .search('solar', { language: 'en', limit: 5 })
      .catch((e: unknown) => e)) as SearchProviderError;
    expect(error.kind).toBe('quota');
    expect(error.message).toMatch(
      /^Search provider tavily refused the request: HTTP 432: This request exceeds your plan/,
    );
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a refused key without the key in the error or logs', async () => {
    const { logger, text } = captureLogger();
    const provider = createTavilyProvider({
      apiKey: 'tvly-wrong-key-000000',
      apiUrl: fake.apiUrl,
      logger,
      policy: FAST_POLICY,
    });
    const error = (await provider
      .search('solar', { language: 'en', limit: 5 })
      .catch((e: unknown) => e)) as SearchProviderError;
    expect(error.message).toBe('Search provider tavily refused the API key or access (HTTP 401)');
    expect(error.message).not.toContain('tvly-wrong-key');
    expect(text()).not.toContain('tvly-wrong-key');
  });

  it('keeps a key echoed in an error body out of the message', async () => {
    fake.script(tavilyError(400, `Invalid request for key ${KEY}`));
    const provider = createTavilyProvider({
      apiKey: KEY,
      apiUrl: fake.apiUrl,
      logger: captureLogger().logger,
      policy: FAST_POLICY,
    });
    const error = (await provider.search('solar', { language: 'en', limit: 5 }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe(
      'Search provider tavily refused the request (HTTP 400: Invalid request for key [REDACTED])',
    );
  });

  it('times out a slow answer, retries, and succeeds when the provider recovers', async () => {
    fake.script({ normalAfterMs: 1_500 });
    const { logger, text } = captureLogger();
    const provider = createTavilyProvider({
      apiKey: KEY,
      apiUrl: fake.apiUrl,
      logger,
      policy: { ...FAST_POLICY, timeoutMs: 300 },
    });
    const hits = await provider.search('solar', { language: 'en', limit: 5 });
    expect(hits).toHaveLength(2);
    expect(text()).toContain('timed out after 300 ms');
    expect(text()).not.toContain(KEY);
  });

  it('names the provider when it cannot be reached at all', async () => {
    const port = await closedPort();
    const { logger, text } = captureLogger();
    const provider = createTavilyProvider({
      apiKey: KEY,
      apiUrl: `http://127.0.0.1:${port}/search`,
      logger,
      policy: FAST_POLICY,
    });
    await expect(provider.search('solar', { language: 'en', limit: 5 })).rejects.toThrow(
      'Search provider tavily is unavailable: refused the connection; gave up after 3 attempts. Without a network, ' +
        'SEARCH_PROVIDER=local with LOCAL_CORPUS_DIR researches a folder of your own files',
    );
    expect(text()).not.toContain(KEY);
  });

  it('retries a dropped connection', async () => {
    fake.script('drop');
    const provider = createTavilyProvider({
      apiKey: KEY,
      apiUrl: fake.apiUrl,
      logger: captureLogger().logger,
      policy: FAST_POLICY,
    });
    await expect(provider.search('solar', { language: 'en', limit: 5 })).resolves.toHaveLength(2);
    expect(fake.requests).toHaveLength(2);
  });

  it('stops at once when the caller aborts, without an error naming the provider', async () => {
    fake.script({ normalAfterMs: 2_000 });
    const provider = createTavilyProvider({
      apiKey: KEY,
      apiUrl: fake.apiUrl,
      logger: captureLogger().logger,
      policy: FAST_POLICY,
    });
    // The provider's clock and the fake's answer delay are Jest's and stand still: the search must end on the
    // abort alone, before the event loop's next turn, while its request is still unanswered.
    fakeTimeoutsOnly();
    try {
      const controller = new AbortController();
      const sent = fake.requests.length;
      const searching = provider.search('solar', { language: 'en', limit: 5, signal: controller.signal });
      searching.catch(() => undefined);
      while (fake.requests.length === sent) await new Promise((resolve) => setImmediate(resolve));
      controller.abort(new Error('run cancelled'));
      expect(await settlesBeforeNextTurn(searching)).toBe(true);
      await expect(searching).rejects.toThrow('run cancelled');
    } finally {
      jest.runOnlyPendingTimers();
      jest.useRealTimers();
    }
  });
});
