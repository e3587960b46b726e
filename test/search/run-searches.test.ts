import { createMetrics, type Metrics } from '@research/observability';
import { runSearches, SearchProviderError, type SearchHit, type SearchProvider } from '@research/search';
import { createTavilyProvider } from '@research/search';
import { startFakeTavilySearch, type FakeTavilySearch } from '../fakes/fake-tavily-search';
import { captureLogger, FAST_POLICY } from './support/capture-logger';

async function counter(metrics: Metrics, name: string, labels: Record<string, string> = {}): Promise<number> {
  const all = await metrics.fleetRegistry.getMetricsAsJSON();
  const metric = all.find((m) => m.name === name);
  const values = (metric?.values ?? []) as Array<{ value: number; labels: Record<string, string | number> }>;
  return values
    .filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l))
    .reduce((sum, v) => sum + v.value, 0);
}

/** A provider answering from a fixed table of query -> URLs (no network: this tests the run-level helper). */
function tableProvider(
  table: Record<string, string[]>,
  failing: Set<string> = new Set(),
): SearchProvider & { sent: string[] } {
  const sent: string[] = [];
  return {
    name: 'table',
    sent,
    async search(query): Promise<SearchHit[]> {
      sent.push(query);
      if (failing.has(query)) throw new SearchProviderError('table', 'unavailable', 'is unavailable: HTTP 503');
      return (table[query] ?? []).map((url, i) => ({
        url,
        title: `T ${url}`,
        snippet: '',
        published_at: null,
        provider: 'table',
        rank: i + 1,
      }));
    },
  };
}

describe('runSearches', () => {
  it('never sends more queries than the budget allows and says which were skipped', async () => {
    const provider = tableProvider({});
    const result = await runSearches({
      provider,
      queries: ['q1', 'q2', 'q3', 'q4'],
      maxQueries: 2,
      language: 'de',
      limit: 5,
    });
    expect(provider.sent).toEqual(['q1', 'q2']);
    expect(result.queriesSent).toBe(2);
    expect(result.budgetExhausted).toBe(true);
    expect(result.skippedQueries).toEqual(['q3', 'q4']);

    const spent = await runSearches({
      provider,
      queries: ['q5'],
      maxQueries: 0,
      language: 'de',
      limit: 5,
    });
    expect(spent).toMatchObject({ queriesSent: 0, budgetExhausted: true, skippedQueries: ['q5'], hits: [] });
    expect(provider.sent).toHaveLength(2);
  });

  it('does not spend budget on blank or repeated queries', async () => {
    const provider = tableProvider({});
    const result = await runSearches({
      provider,
      queries: ['Solar  power', ' ', 'solar power', 'wind'],
      maxQueries: 2,
      language: 'de',
      limit: 5,
    });
    expect(provider.sent).toEqual(['Solar power', 'wind']);
    expect(result.budgetExhausted).toBe(false);
  });

  it('merges hits with the same normalised URL and counts discoveries and duplicates', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const provider = tableProvider({
      a: ['https://Example.org/page/', 'https://example.org/other?utm_source=x', 'mailto:x@example.org'],
      b: [
        'https://example.org/page#top',
        'https://example.org/other',
        'https://example.org/new',
        'https://known.example/x',
      ],
    });
    const result = await runSearches({
      provider,
      queries: ['a', 'b'],
      maxQueries: 10,
      language: 'de',
      limit: 5,
      metrics,
      knownUrls: ['https://KNOWN.example/x/'],
    });
    expect(result.hits.map((h) => [h.query, h.url, h.rank])).toEqual([
      ['a', 'https://Example.org/page/', 1],
      ['a', 'https://example.org/other?utm_source=x', 2],
      ['b', 'https://example.org/new', 3],
    ]);
    expect(result.duplicates).toBe(3);
    expect(result.invalid).toBe(1);
    expect(await counter(metrics, 'search_queries_total', { provider: 'table' })).toBe(2);
    expect(await counter(metrics, 'sources_discovered_total')).toBe(3);
    expect(await counter(metrics, 'duplicate_sources_total')).toBe(3);
  });

  it('with weights, fuses the lists: a page several queries find rises, the heavier query counts more', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const provider = tableProvider({
      question: ['https://q.example/1', 'https://q.example/2', 'https://both.example/', 'https://q.example/4'],
      aspect: ['https://aspect.example/1', 'https://both.example/#x', 'https://aspect.example/3', 'ftp://x'],
    });
    const result = await runSearches({
      provider,
      queries: ['question', 'aspect'],
      weights: [2, 1],
      maxQueries: 10,
      language: 'en',
      limit: 10,
      metrics,
      knownUrls: ['https://q.example/4'],
    });
    expect(result.hits.map((h) => [h.query, h.url, h.rank])).toEqual([
      ['question', 'https://both.example/', 3],
      ['question', 'https://q.example/1', 1],
      ['question', 'https://q.example/2', 2],
      ['aspect', 'https://aspect.example/1', 1],
      ['aspect', 'https://aspect.example/3', 3],
    ]);
    // The second both.example and the known q.example/4 are duplicates; ftp:// is invalid.
    expect(result.duplicates).toBe(2);
    expect(result.invalid).toBe(1);
    expect(await counter(metrics, 'duplicate_sources_total')).toBe(2);
  });

  it('goes on after a failing query and records it', async () => {
    const provider = tableProvider({ good: ['https://example.org/1'] }, new Set(['bad']));
    const result = await runSearches({
      provider,
      queries: ['bad', 'good'],
      maxQueries: 5,
      language: 'de',
      limit: 5,
    });
    expect(result.hits).toHaveLength(1);
    expect(result.queriesSent).toBe(2);
    expect(result.failures).toEqual([{ query: 'bad', message: 'Search provider table is unavailable: HTTP 503' }]);
    expect(result.allFailed).toBe(false);
  });

  it('reports, rather than throws, when every query fails, so the queries sent can be accounted', async () => {
    const metrics = createMetrics({ defaultMetrics: false });
    const provider = tableProvider({}, new Set(['x', 'y']));
    const result = await runSearches({
      provider,
      queries: ['x', 'y'],
      maxQueries: 5,
      language: 'de',
      limit: 5,
      metrics,
    });
    expect(result.allFailed).toBe(true);
    expect(result.queriesSent).toBe(2);
    expect(result.lastError).toBeInstanceOf(SearchProviderError);
    expect((result.lastError as Error).message).toBe('Search provider table is unavailable: HTTP 503');
    expect(await counter(metrics, 'search_queries_total', { provider: 'table' })).toBe(2);
  });

  describe('against a provider over HTTP', () => {
    let fake: FakeTavilySearch;
    beforeAll(async () => {
      fake = await startFakeTavilySearch({
        apiKey: 'tvly-k',
        documents: [
          { url: 'https://a.example/solar', title: 'Solar', text: 'solar power basics' },
          { url: 'https://b.example/wind?utm_medium=feed', title: 'Wind', text: 'wind and solar power' },
        ],
      });
    });
    afterAll(() => fake.close());

    it('sends budgeted queries, dedupes across them and stops when the run is cancelled', async () => {
      const metrics = createMetrics({ defaultMetrics: false });
      const provider = createTavilyProvider({
        apiKey: 'tvly-k',
        apiUrl: fake.apiUrl,
        logger: captureLogger().logger,
        policy: FAST_POLICY,
      });
      const result = await runSearches({
        provider,
        queries: ['solar power', 'wind power', 'solar wind'],
        maxQueries: 2,
        language: 'en',
        limit: 5,
        metrics,
      });
      expect(fake.requests).toHaveLength(2);
      expect(result.hits.map((h) => h.url)).toEqual([
        'https://a.example/solar',
        'https://b.example/wind?utm_medium=feed',
      ]);
      expect(result.skippedQueries).toEqual(['solar wind']);
      expect(await counter(metrics, 'search_queries_total', { provider: 'tavily' })).toBe(2);
      expect(await counter(metrics, 'duplicate_sources_total')).toBe(2);

      const controller = new AbortController();
      controller.abort(new Error('run cancelled'));
      await expect(
        runSearches({
          provider,
          queries: ['solar'],
          maxQueries: 5,
          language: 'en',
          limit: 5,
          signal: controller.signal,
        }),
      ).rejects.toThrow('run cancelled');
      expect(fake.requests).toHaveLength(2);
    });
  });
});
