import { createSearxngProvider, type SearchProviderError } from '@research/search';
import { SEARXNG_TOO_MANY, startFakeSearxng, type FakeSearxng } from '../fakes/fake-searxng';
import { captureLogger, FAST_POLICY, searchThroughOneRetry } from './support/capture-logger';

const DOCUMENTS = [
  {
    url: 'https://de.example.org/energiewende',
    title: 'Energiewende in Deutschland',
    text: 'Die Energiewende &amp; der Ausbau erneuerbarer Energien in Deutschland.',
    date: '2023-11-02T00:00:00',
  },
  {
    url: 'https://example.com/solar',
    title: 'Solarenergie',
    text: 'Solarenergie liefert einen wachsenden Anteil der Energie.',
  },
  {
    url: 'https://example.com/wind',
    title: 'Windenergie',
    text: 'Windenergie ist die größte erneuerbare Energie in Deutschland.',
  },
];

describe('searxng search provider', () => {
  let fake: FakeSearxng;
  beforeAll(async () => {
    fake = await startFakeSearxng({ documents: DOCUMENTS });
  });
  afterAll(() => fake.close());
  beforeEach(() => fake.requests.splice(0));

  it('queries /search with format=json and normalises results', async () => {
    const provider = createSearxngProvider({ baseUrl: `${fake.baseUrl}/`, logger: captureLogger().logger });
    const hits = await provider.search('Energiewende Deutschland', { language: 'de', limit: 10 });
    expect(hits[0]).toEqual({
      url: 'https://de.example.org/energiewende',
      title: 'Energiewende in Deutschland',
      snippet: 'Die Energiewende & der Ausbau erneuerbarer Energien in Deutschland.',
      published_at: '2023-11-02T00:00:00.000Z',
      provider: 'searxng',
      rank: 1,
    });
    expect(hits.map((h) => h.rank)).toEqual([1, 2]);
    expect(hits[1]!.published_at).toBeNull();
    const request = fake.requests[0]!;
    expect(request.path).toBe('/search');
    expect(request.query.get('format')).toBe('json');
    expect(request.query.get('q')).toBe('Energiewende Deutschland');
    expect(request.query.get('language')).toBe('de');
  });

  it('cuts the page to the limit asked for', async () => {
    const provider = createSearxngProvider({ baseUrl: fake.baseUrl, logger: captureLogger().logger });
    const hits = await provider.search('Energie', { language: 'de', limit: 2 });
    expect(hits).toHaveLength(2);
  });

  it('honours the limiter answer (429 with Retry-After) and then succeeds', async () => {
    fake.script(SEARXNG_TOO_MANY);
    const { logger, lines } = captureLogger();
    const provider = createSearxngProvider({ baseUrl: fake.baseUrl, logger, policy: FAST_POLICY });
    const { result: hits, waitedMs } = await searchThroughOneRetry(lines, () =>
      provider.search('Solarenergie', { language: 'de', limit: 5 }),
    );
    expect(waitedMs).toBeGreaterThanOrEqual(1000);
    expect(hits[0]!.title).toBe('Solarenergie');
  });

  it('explains a 403 from an instance without the json format', async () => {
    const closed = await startFakeSearxng({ documents: DOCUMENTS, jsonEnabled: false });
    try {
      const provider = createSearxngProvider({
        baseUrl: closed.baseUrl,
        logger: captureLogger().logger,
        policy: FAST_POLICY,
      });
      const error = (await provider
        .search('Energie', { language: 'de', limit: 5 })
        .catch((e: unknown) => e)) as SearchProviderError;
      expect(error.message).toBe(
        'Search provider searxng refused the request (HTTP 403: is the json format enabled in search.formats?)',
      );
      expect(closed.requests).toHaveLength(1);
    } finally {
      await closed.close();
    }
  });

  it('fails on malformed JSON and on a wrong shape with errors naming the provider', async () => {
    fake.script(
      { status: 200, headers: { 'content-type': 'application/json' }, body: '<html>not json</html>' },
      { status: 200, body: { query: 'x', answers: [] } },
    );
    const provider = createSearxngProvider({
      baseUrl: fake.baseUrl,
      logger: captureLogger().logger,
      policy: FAST_POLICY,
    });
    await expect(provider.search('Energie', { language: 'de', limit: 5 })).rejects.toThrow(
      'Search provider searxng answered with malformed JSON',
    );
    await expect(provider.search('Energie', { language: 'de', limit: 5 })).rejects.toThrow(
      'Search provider searxng answered in an unexpected shape',
    );
  });

  it('does not put instance credentials from SEARXNG_URL into errors or logs', async () => {
    fake.script({ status: 500, body: 'x' }, { status: 500, body: 'x' }, { status: 500, body: 'x' });
    const { logger, text } = captureLogger();
    const withCredentials = fake.baseUrl.replace('http://', 'http://admin:hunter2secret@');
    const provider = createSearxngProvider({ baseUrl: withCredentials, logger, policy: FAST_POLICY });
    const error = (await provider.search('Energie', { language: 'de', limit: 5 }).catch((e: unknown) => e)) as Error;
    expect(error.message).toBe('Search provider searxng is unavailable: HTTP 500; gave up after 3 attempts');
    expect(text()).not.toContain('hunter2secret');
    expect(fake.requests[0]!.headers.authorization).toBe(
      `Basic ${Buffer.from('admin:hunter2secret').toString('base64')}`,
    );
  });
});
