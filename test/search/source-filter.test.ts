import {
  createBraveProvider,
  createSearxngProvider,
  createTavilyProvider,
  withSiteOperators,
  type SearchFilter,
} from '@research/search';
import { startFakeBraveSearch, type FakeBraveSearch } from '../fakes/fake-brave-search';
import { startFakeSearxng, type FakeSearxng } from '../fakes/fake-searxng';
import { startFakeTavilySearch, type FakeTavilySearch } from '../fakes/fake-tavily-search';
import { captureLogger, FAST_POLICY } from './support/capture-logger';

const KEY = 'provider-key-0123456789abcdef';

const DOCUMENTS = [
  {
    url: 'https://www.destatis.de/solar',
    title: 'Solar power statistics',
    text: 'Solar power output grew in 2024.',
    date: '2024-05-01',
  },
  { url: 'https://stats.europa.eu/solar', title: 'Solar power in Europe', text: 'Solar power output in Europe.' },
  {
    url: 'https://blog.example.com/solar',
    title: 'Solar power blog',
    text: 'Solar power output, a blog post.',
    date: '2019-01-01',
  },
  { url: 'https://badexample.com/solar', title: 'Solar power elsewhere', text: 'Solar power output elsewhere.' },
];

const FILTER: SearchFilter = {
  include_domains: ['destatis.de', 'europa.eu', 'example.com'],
  exclude_domains: ['blog.example.com'],
  published_after: '2023-01-01',
};

const hostsOf = (hits: Array<{ url: string }>) => hits.map((h) => new URL(h.url).hostname).sort();

describe('source controls passed to search providers', () => {
  let brave: FakeBraveSearch;
  let tavily: FakeTavilySearch;
  let searxng: FakeSearxng;
  beforeAll(async () => {
    [brave, tavily, searxng] = await Promise.all([
      startFakeBraveSearch({ apiKey: KEY, documents: DOCUMENTS }),
      startFakeTavilySearch({ apiKey: KEY, documents: DOCUMENTS }),
      startFakeSearxng({ documents: DOCUMENTS }),
    ]);
  });
  afterAll(() => Promise.all([brave.close(), tavily.close(), searxng.close()]));
  const options = { language: 'en', limit: 10, filter: FILTER };

  it('sends Tavily include_domains, exclude_domains and start_date in the body', async () => {
    const provider = createTavilyProvider({ apiKey: KEY, apiUrl: tavily.apiUrl, logger: captureLogger().logger });
    const hits = await provider.search('solar power', options);
    expect(JSON.parse(tavily.requests.at(-1)!.body)).toMatchObject({
      query: 'solar power',
      include_domains: ['destatis.de', 'europa.eu', 'example.com'],
      exclude_domains: ['blog.example.com'],
      start_date: '2023-01-01',
    });
    expect(hostsOf(hits)).toEqual(['stats.europa.eu', 'www.destatis.de']);
  });

  it('asks Brave with site: and -site: operators in q and published_after as a freshness range', async () => {
    const provider = createBraveProvider({
      apiKey: KEY,
      apiUrl: brave.apiUrl,
      logger: captureLogger().logger,
      policy: FAST_POLICY,
    });
    const hits = await provider.search('solar power', options);
    const sent = brave.requests.at(-1)!.query;
    expect(sent.get('q')).toBe(
      'solar power (site:destatis.de OR site:europa.eu OR site:example.com) -site:blog.example.com',
    );
    expect(sent.get('freshness')).toMatch(/^2023-01-01to\d{4}-\d{2}-\d{2}$/);
    expect(hostsOf(hits)).toEqual(['stats.europa.eu', 'www.destatis.de']);
  });

  it('asks SearxNG with site: operators in q', async () => {
    const provider = createSearxngProvider({ baseUrl: searxng.origin, logger: captureLogger().logger });
    const hits = await provider.search('solar power', { ...options, filter: { ...FILTER, include_domains: [] } });
    expect(searxng.requests.at(-1)!.query.get('q')).toBe('solar power -site:blog.example.com');
    expect(hostsOf(hits)).toEqual(['badexample.com', 'stats.europa.eu', 'www.destatis.de']);
  });

  it('sends queries unchanged without a filter', async () => {
    const provider = createSearxngProvider({ baseUrl: searxng.origin, logger: captureLogger().logger });
    await provider.search('solar power', { language: 'en', limit: 10 });
    expect(searxng.requests.at(-1)!.query.get('q')).toBe('solar power');
  });

  it('keeps a query within the engine limits: all included hosts or none, excluded hosts as many as fit', () => {
    const many = Array.from({ length: 50 }, (_, i) => `site-number-${i}.example.org`);
    const limits = { maxChars: 400, maxWords: 50 };
    const included = withSiteOperators('solar', { ...FILTER, include_domains: many, exclude_domains: [] }, limits);
    expect(included).toBe('solar');
    const excluded = withSiteOperators('solar', { ...FILTER, include_domains: [], exclude_domains: many }, limits);
    expect(excluded.length).toBeLessThanOrEqual(400);
    expect(excluded).toMatch(/^solar -site:site-number-0\.example\.org -site:site-number-1\.example\.org/);
  });
});
