import { createBraveProvider, braveSearchLanguage, SearchProviderError } from '@research/search';
import {
  braveQuotaSpent,
  braveRateLimited,
  startFakeBraveSearch,
  type FakeBraveSearch,
} from '../fakes/fake-brave-search';
import { captureLogger, FAST_POLICY, searchThroughOneRetry } from './support/capture-logger';

const KEY = 'BSA-secret-subscription-token-0123456789';

const DOCUMENTS = [
  {
    url: 'https://example.org/photosynthesis?utm_source=x',
    title: 'Photosynthesis & light',
    text: 'Photosynthesis converts light energy into "chemical" energy in plants.',
    date: '2024-03-01T10:00:00',
  },
  {
    url: 'https://plants.example.com/chlorophyll',
    title: 'Chlorophyll',
    text: 'Chlorophyll absorbs light for photosynthesis.',
  },
];

describe('brave search provider', () => {
  let fake: FakeBraveSearch;
  beforeAll(async () => {
    fake = await startFakeBraveSearch({ apiKey: KEY, documents: DOCUMENTS });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.requests.splice(0));

  it('normalises web.results to plain-text hits with rank, page_age date and provider', async () => {
    const { logger } = captureLogger();
    const provider = createBraveProvider({ apiKey: KEY, apiUrl: fake.apiUrl, logger, policy: FAST_POLICY });
    const hits = await provider.search('photosynthesis light', { language: 'de-AT', limit: 5 });
    expect(hits).toEqual([
      {
        url: 'https://example.org/photosynthesis?utm_source=x',
        title: 'Photosynthesis & light',
        snippet: 'Photosynthesis converts light energy into "chemical" energy in plants.',
        published_at: '2024-03-01T10:00:00.000Z',
        provider: 'brave',
        rank: 1,
      },
      {
        url: 'https://plants.example.com/chlorophyll',
        title: 'Chlorophyll',
        snippet: 'Chlorophyll absorbs light for photosynthesis.',
        published_at: null,
        provider: 'brave',
        rank: 2,
      },
    ]);
    const request = fake.requests[0]!;
    expect(request.headers['x-subscription-token']).toBe(KEY);
    expect(request.query.get('count')).toBe('5');
    expect(request.query.get('search_lang')).toBe('de');
  });

  it('asks for at most 20 results, the most Brave accepts', async () => {
    const provider = createBraveProvider({ apiKey: KEY, apiUrl: fake.apiUrl, logger: captureLogger().logger });
    await provider.search('photosynthesis', { language: 'en', limit: 50 });
    expect(fake.requests[0]!.query.get('count')).toBe('20');
  });

  it('maps run languages to Brave search_lang values and leaves unknown ones out', () => {
    expect(braveSearchLanguage('pt-BR')).toBe('pt-br');
    expect(braveSearchLanguage('ja')).toBe('jp');
    expect(braveSearchLanguage('zh-TW')).toBe('zh-hant');
    expect(braveSearchLanguage('en_GB')).toBe('en-gb');
    expect(braveSearchLanguage('xx')).toBeUndefined();
    expect(braveSearchLanguage('not a language')).toBeUndefined();
  });

  it('waits for X-RateLimit-Reset after a 429 and then succeeds', async () => {
    fake.script(braveRateLimited(1));
    const { logger, lines } = captureLogger();
    const provider = createBraveProvider({ apiKey: KEY, apiUrl: fake.apiUrl, logger, policy: FAST_POLICY });
    const { result: hits, waitedMs } = await searchThroughOneRetry(lines, () =>
      provider.search('chlorophyll', { language: 'en', limit: 3 }),
    );
    expect(waitedMs).toBeGreaterThanOrEqual(1000);
    expect(hits.map((h) => h.title)).toEqual(['Chlorophyll']);
    expect(fake.requests).toHaveLength(2);
  });

  it('fails at once, naming the provider, when the monthly quota is spent', async () => {
    fake.script(braveQuotaSpent());
    const provider = createBraveProvider({
      apiKey: KEY,
      apiUrl: fake.apiUrl,
      logger: captureLogger().logger,
      policy: FAST_POLICY,
    });
    await expect(provider.search('chlorophyll', { language: 'en', limit: 3 })).rejects.toThrow(
      /^Search provider brave is rate limiting requests \(asked to wait 1419704 s\)$/,
    );
    expect(fake.requests).toHaveLength(1);
  });

  it('retries 5xx answers and then fails with an error naming the provider', async () => {
    fake.script({ status: 500, body: 'oops' }, { status: 502, body: 'bad gateway' }, { status: 503, body: 'down' });
    const { logger, lines } = captureLogger();
    const provider = createBraveProvider({ apiKey: KEY, apiUrl: fake.apiUrl, logger, policy: FAST_POLICY });
    const error = await provider.search('chlorophyll', { language: 'en', limit: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SearchProviderError);
    expect((error as SearchProviderError).message).toBe(
      'Search provider brave is unavailable: HTTP 503; gave up after 3 attempts',
    );
    expect((error as SearchProviderError).retryable).toBe(true);
    expect(fake.requests).toHaveLength(3);
    expect(lines.filter((l) => l.includes('retrying'))).toHaveLength(2);
  });

  it('reports a refused key without showing it in the error or the logs', async () => {
    const { logger, text } = captureLogger();
    const provider = createBraveProvider({ apiKey: `${KEY}-wrong`, apiUrl: fake.apiUrl, logger, policy: FAST_POLICY });
    const error = (await provider
      .search('chlorophyll', { language: 'en', limit: 3 })
      .catch((e: unknown) => e)) as SearchProviderError;
    expect(error.message).toBe(
      'Search provider brave refused the API key or access (HTTP 422 SUBSCRIPTION_TOKEN_INVALID)',
    );
    expect(error.kind).toBe('auth');
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(1);
    expect(JSON.stringify(error)).not.toContain(KEY);
    expect(String(error.stack)).not.toContain(KEY);
    expect(text()).not.toContain(KEY);
  });

  it('treats malformed JSON as a bad answer, naming the provider', async () => {
    fake.script({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"web": {"results": [' });
    const provider = createBraveProvider({
      apiKey: KEY,
      apiUrl: fake.apiUrl,
      logger: captureLogger().logger,
      policy: FAST_POLICY,
    });
    await expect(provider.search('chlorophyll', { language: 'en', limit: 3 })).rejects.toThrow(
      'Search provider brave answered with malformed JSON',
    );
  });

  it('gives no hits when Brave has no web section for the query', async () => {
    const provider = createBraveProvider({ apiKey: KEY, apiUrl: fake.apiUrl, logger: captureLogger().logger });
    await expect(provider.search('zebra', { language: 'en', limit: 3 })).resolves.toEqual([]);
  });
});
