import {
  createWikipediaProvider,
  wikipediaApiUrl,
  wikipediaArticleUrl,
  wikipediaLanguage,
  type SearchProviderError,
} from '@research/search';
import { MEDIAWIKI_MAXLAG, startFakeWikipediaSearch, type FakeWikipediaSearch } from '../fakes/fake-wikipedia-search';
import { captureLogger, FAST_POLICY } from './support/capture-logger';

describe('wikipedia language edition', () => {
  it('uses the primary language subtag of the run language', () => {
    expect(wikipediaLanguage('de')).toBe('de');
    expect(wikipediaLanguage('de-AT')).toBe('de');
    expect(wikipediaLanguage('pt_BR')).toBe('pt');
    expect(wikipediaLanguage(' EN ')).toBe('en');
    expect(wikipediaLanguage('zh-Hant-TW')).toBe('zh');
    expect(wikipediaLanguage('als')).toBe('als');
  });

  it('falls back to the German edition for anything that is not a language code', () => {
    for (const odd of ['', 'deutsch', 'de.evil.example/x', '../../etc', 'e', '12', 'de AT', null, undefined]) {
      expect(wikipediaLanguage(odd)).toBe('de');
    }
  });

  it('builds https://<lang>.wikipedia.org/w/api.php unless WIKIPEDIA_API_URL is set', () => {
    expect(wikipediaApiUrl(undefined, 'fr-CA')).toBe('https://fr.wikipedia.org/w/api.php');
    expect(wikipediaApiUrl(undefined, 'evil.example.com#')).toBe('https://de.wikipedia.org/w/api.php');
    expect(wikipediaApiUrl('http://mirror.local/{lang}/w/api.php', 'en')).toBe('http://mirror.local/en/w/api.php');
    expect(wikipediaApiUrl('http://mirror.local/w/api.php', 'en')).toBe('http://mirror.local/w/api.php');
  });

  it('links articles under /wiki/ beside the API', () => {
    expect(wikipediaArticleUrl('https://de.wikipedia.org/w/api.php', 'Albert Einstein')).toBe(
      'https://de.wikipedia.org/wiki/Albert_Einstein',
    );
    expect(wikipediaArticleUrl('http://127.0.0.1:9/en/w/api.php', 'AC/DC: Live?')).toBe(
      'http://127.0.0.1:9/en/wiki/AC/DC:_Live%3F',
    );
  });
});

describe('wikipedia search provider', () => {
  let fake: FakeWikipediaSearch;
  beforeAll(async () => {
    fake = await startFakeWikipediaSearch({
      documents: {
        de: [
          {
            url: '',
            title: 'Photosynthese',
            text: 'Die Photosynthese ist ein "physiologischer" Prozess & wandelt Lichtenergie um.',
            date: '2024-02-11T09:15:00Z',
          },
        ],
        en: [{ url: '', title: 'Photosynthesis', text: 'Photosynthesis is a process used by plants.' }],
      },
    });
  });
  afterAll(() => fake.close());
  beforeEach(() => {
    fake.requests.splice(0);
    fake.languages.splice(0);
  });

  it('searches the edition of the run language and returns plain-text snippets', async () => {
    const provider = createWikipediaProvider({ apiUrl: fake.apiUrlTemplate, logger: captureLogger().logger });
    const hits = await provider.search('Photosynthese Prozess', { language: 'de-CH', limit: 5 });
    expect(hits).toEqual([
      {
        url: `${fake.origin}/de/wiki/Photosynthese`,
        title: 'Photosynthese',
        snippet: 'Die Photosynthese ist ein "physiologischer" Prozess & wandelt Lichtenergie um.',
        published_at: '2024-02-11T09:15:00.000Z',
        provider: 'wikipedia',
        rank: 1,
      },
    ]);
    const english = await provider.search('Photosynthesis plants', { language: 'en', limit: 5 });
    expect(english.map((h) => h.url)).toEqual([`${fake.origin}/en/wiki/Photosynthesis`]);
    const fallback = await provider.search('Photosynthese', { language: 'klingon!', limit: 5 });
    expect(fallback).toHaveLength(1);
    expect(fake.languages).toEqual(['de', 'en', 'de']);
    expect(fake.requests[0]!.query.get('srlimit')).toBe('5');
    expect(fake.requests[0]!.headers['user-agent']).toMatch(/^research-service\//);
  });

  it('retries maxlag refusals after Retry-After', async () => {
    fake.script(MEDIAWIKI_MAXLAG);
    const { logger, text } = captureLogger();
    const provider = createWikipediaProvider({ apiUrl: fake.apiUrlTemplate, logger, policy: FAST_POLICY });
    const hits = await provider.search('Photosynthese', { language: 'de', limit: 5 });
    expect(hits).toHaveLength(1);
    expect(fake.requests).toHaveLength(2);
    expect(text()).toContain('API error maxlag');
  });

  it('reports other API errors as a refused request without retrying', async () => {
    fake.script({
      status: 200,
      body: { error: { code: 'badvalue', info: 'Unrecognized value for parameter "srwhat".' } },
    });
    const provider = createWikipediaProvider({
      apiUrl: fake.apiUrlTemplate,
      logger: captureLogger().logger,
      policy: FAST_POLICY,
    });
    const error = (await provider
      .search('x', { language: 'de', limit: 5 })
      .catch((e: unknown) => e)) as SearchProviderError;
    expect(error.message).toBe(
      'Search provider wikipedia refused the request (API error badvalue: Unrecognized value for parameter "srwhat".)',
    );
    expect(fake.requests).toHaveLength(1);
  });

  it('fails at once, without asking or retrying, for a query with a lone surrogate', async () => {
    const { logger, text } = captureLogger();
    const provider = createWikipediaProvider({ apiUrl: fake.apiUrlTemplate, logger, policy: FAST_POLICY });
    const error = (await provider
      .search('\ud800x', { language: 'de', limit: 5 })
      .catch((e: unknown) => e)) as SearchProviderError;
    expect(error.kind).toBe('invalid_request');
    expect(error.message).toBe(
      'query: must be valid Unicode (no unpaired surrogates) (search provider wikipedia was not asked)',
    );
    expect(error.retryable).toBe(false);
    expect(fake.requests).toHaveLength(0);
    expect(text()).not.toContain('retrying');
  });

  it('names the provider when it stays down and when it is too slow', async () => {
    fake.script({ status: 503, body: 'x' }, { status: 503, body: 'x' }, { status: 503, body: 'x' });
    const provider = createWikipediaProvider({
      apiUrl: fake.apiUrlTemplate,
      logger: captureLogger().logger,
      policy: FAST_POLICY,
    });
    await expect(provider.search('Photosynthese', { language: 'de', limit: 5 })).rejects.toThrow(
      'Search provider wikipedia is unavailable: HTTP 503; gave up after 3 attempts',
    );
    fake.script({ normalAfterMs: 2_000 }, { normalAfterMs: 2_000 });
    const slow = createWikipediaProvider({
      apiUrl: fake.apiUrlTemplate,
      logger: captureLogger().logger,
      policy: { ...FAST_POLICY, timeoutMs: 200, retries: 1 },
    });
    await expect(slow.search('Photosynthese', { language: 'de', limit: 5 })).rejects.toThrow(
      'Search provider wikipedia is unavailable: timed out after 200 ms; gave up after 2 attempts',
    );
  });
});
