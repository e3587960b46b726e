import { classifyError } from '@research/http';
import { createWikipediaProvider, SearchProviderError, type SearchFailureKind } from '@research/search';
import { startFakeWikipediaSearch, type FakeWikipediaSearch } from '../fakes/fake-wikipedia-search';
import { captureLogger, FAST_POLICY } from './support/capture-logger';

describe('what the API answers for a search provider error', () => {
  it.each<[SearchFailureKind, number]>([
    ['unavailable', 503],
    ['rate_limited', 503],
    ['auth', 503],
    ['quota', 503],
    ['rejected', 503],
    ['bad_response', 503],
  ])('a provider that failed (%s) is a 503 naming the provider', (kind, status) => {
    const error = new SearchProviderError('brave', kind, 'is unavailable: HTTP 500');
    expect(classifyError(error)).toEqual({ status, detail: 'Search provider brave is unavailable: HTTP 500' });
  });

  describe('a query the provider cannot be sent', () => {
    let fake: FakeWikipediaSearch;
    beforeAll(async () => {
      fake = await startFakeWikipediaSearch({ documents: {} });
    });
    afterAll(() => fake.close());

    it('is a 422 on query that says what is wrong, and the provider is not asked', async () => {
      const provider = createWikipediaProvider({
        apiUrl: fake.apiUrlTemplate,
        logger: captureLogger().logger,
        policy: FAST_POLICY,
      });
      const error = await provider.search('\ud800x', { language: 'de', limit: 5 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SearchProviderError);
      expect(classifyError(error)).toEqual({
        status: 422,
        detail: 'query: must be valid Unicode (no unpaired surrogates) (search provider wikipedia was not asked)',
      });
      expect(fake.requests).toHaveLength(0);
    });
  });
});
