import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig } from '@research/core';
import { loadServiceConfig } from '@research/runtime';
import { SEARCH_PROVIDER_NAMES, SEARCH_PROVIDER_REGISTRY, createSearchProvider } from '@research/search';
import { startFakeBraveSearch } from '../fakes/fake-brave-search';
import { startFakeWikipediaSearch } from '../fakes/fake-wikipedia-search';
import { captureLogger } from './support/capture-logger';

const logger = captureLogger().logger;

describe('createSearchProvider', () => {
  it('uses Wikipedia with no configuration at all', () => {
    expect(createSearchProvider(loadConfig({}), { logger }).name).toBe('wikipedia');
  });

  it("knows the registry's providers and nothing else, at start and when building", () => {
    expect(SEARCH_PROVIDER_NAMES).toEqual(Object.keys(SEARCH_PROVIDER_REGISTRY));
    let error: unknown;
    try {
      loadServiceConfig({ SEARCH_PROVIDER: 'bing', PORT: 'eighty' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT/),
        `SEARCH_PROVIDER: must be one of ${SEARCH_PROVIDER_NAMES.join(', ')}`,
      ]),
    );
    expect(() => createSearchProvider(loadConfig({ SEARCH_PROVIDER: 'bing' }), { logger })).toThrow(
      'SEARCH_PROVIDER=bing is not a search provider',
    );
  });

  it('refuses a provider whose setting is missing, naming the variable', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ SEARCH_PROVIDER: 'searxng' }, 'SEARCH_PROVIDER=searxng needs SEARXNG_URL to be set'],
      [{ SEARCH_PROVIDER: 'brave' }, 'SEARCH_PROVIDER=brave needs BRAVE_API_KEY to be set'],
      [{ SEARCH_PROVIDER: 'tavily', TAVILY_API_KEY: '  ' }, 'SEARCH_PROVIDER=tavily needs TAVILY_API_KEY to be set'],
      [{ SEARCH_PROVIDER: 'local' }, 'SEARCH_PROVIDER=local needs LOCAL_CORPUS_DIR to be set'],
      [
        { SEARCH_PROVIDER: 'local', LOCAL_CORPUS_DIR: '/definitely/not/here' },
        'LOCAL_CORPUS_DIR is not a readable folder: /definitely/not/here',
      ],
    ];
    for (const [env, message] of cases) {
      expect(() => createSearchProvider(loadConfig(env), { logger })).toThrow(message);
    }
  });

  it('builds each provider from its variables, with endpoints overridable for tests', async () => {
    const brave = await startFakeBraveSearch({
      apiKey: 'brave-key-123456',
      documents: [{ url: 'https://example.org/a', title: 'Alpha', text: 'alpha particles' }],
    });
    const wiki = await startFakeWikipediaSearch({
      documents: { fr: [{ url: '', title: 'Alpha', text: 'alpha particule' }] },
    });
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'corpus-'));
    try {
      const viaBrave = createSearchProvider(
        loadConfig({ SEARCH_PROVIDER: 'brave', BRAVE_API_KEY: 'brave-key-123456', BRAVE_API_URL: brave.apiUrl }),
        { logger },
      );
      expect(await viaBrave.search('alpha', { language: 'en', limit: 3 })).toHaveLength(1);

      const viaWiki = createSearchProvider(loadConfig({ WIKIPEDIA_API_URL: wiki.apiUrlTemplate }), { logger });
      const hits = await viaWiki.search('alpha', { language: 'fr-BE', limit: 3 });
      expect(hits.map((h) => h.url)).toEqual([`${wiki.origin}/fr/wiki/Alpha`]);

      expect(
        createSearchProvider(loadConfig({ SEARCH_PROVIDER: 'searxng', SEARXNG_URL: 'http://127.0.0.1:1' }), { logger })
          .name,
      ).toBe('searxng');
      expect(
        createSearchProvider(loadConfig({ SEARCH_PROVIDER: 'tavily', TAVILY_API_KEY: 'tvly-x' }), { logger }).name,
      ).toBe('tavily');
      const local = createSearchProvider(loadConfig({ SEARCH_PROVIDER: 'local', LOCAL_CORPUS_DIR: dir }), { logger });
      expect(local.name).toBe('local');
      await local.close?.();
    } finally {
      await brave.close();
      await wiki.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  });

  it('reads the search knobs from the environment', () => {
    const config = loadConfig({
      SEARCH_TIMEOUT_MS: '2500',
      SEARCH_MAX_RETRIES: '0',
      SEARCH_RETRY_BASE_MS: '50',
      LOCAL_CORPUS_POLL_MS: '0',
      TAVILY_API_URL: 'http://127.0.0.1:9/search',
    });
    expect(config.search).toMatchObject({
      timeoutMs: 2500,
      maxRetries: 0,
      retryBaseMs: 50,
      localCorpusPollMs: 0,
      tavilyApiUrl: 'http://127.0.0.1:9/search',
      braveApiUrl: undefined,
    });
    expect(() => loadConfig({ BRAVE_API_URL: 'ftp://x' })).toThrow('BRAVE_API_URL');
  });
});
