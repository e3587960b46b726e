import path from 'node:path';
import { ConfigError, loadConfig } from '@research/core';

describe('loadConfig', () => {
  it('gives the CONTRACT defaults for an empty environment', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 8000,
      host: '0.0.0.0',
      databaseUrl: undefined,
      dataDir: path.resolve('./data'),
      redisUrl: undefined,
      workerConcurrency: 2,
      debug: false,
      logLevel: 'info',
      logFormat: 'json',
    });
    expect(c.llm).toMatchObject({ baseUrl: undefined, maxConcurrency: 4, routesMaxConcurrency: 2, timeoutMs: 60_000 });
    expect(c.quotas).toEqual({ runsPerMinute: 300, runsPerHour: 2000, searchesPerMinute: 120 });
    expect(c.search.provider).toBe('wikipedia');
    expect(c.crawler).toEqual({
      allowPrivateNetworks: false,
      respectRobots: true,
      timeoutMs: 15_000,
      cacheTtlSeconds: 86_400,
    });
    expect(c.webhooks).toEqual({ secret: undefined, retryBaseMs: 10_000, timeoutMs: 10_000 });
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.llm)).toBe(true);
  });

  it('reads the LLM prices as decimal USD per million tokens, none unless both are set', () => {
    expect(loadConfig({}).llm.prices).toBeNull();
    expect(loadConfig({ LLM_PRICE_INPUT_PER_MTOK: '2.5' }).llm.prices).toBeNull();
    expect(loadConfig({ LLM_PRICE_INPUT_PER_MTOK: '', LLM_PRICE_OUTPUT_PER_MTOK: '' }).llm.prices).toBeNull();
    expect(loadConfig({ LLM_PRICE_INPUT_PER_MTOK: ' 0.15 ', LLM_PRICE_OUTPUT_PER_MTOK: '0' }).llm.prices).toEqual({
      inputPerMtok: 0.15,
      outputPerMtok: 0,
    });
    expect(() => loadConfig({ LLM_PRICE_INPUT_PER_MTOK: 'cheap', LLM_PRICE_OUTPUT_PER_MTOK: '1' })).toThrow(
      /LLM_PRICE_INPUT_PER_MTOK/,
    );
    expect(() => loadConfig({ LLM_PRICE_OUTPUT_PER_MTOK: '-1' })).toThrow(/LLM_PRICE_OUTPUT_PER_MTOK/);
  });

  it('lets vision and audio default to the LLM base URL', () => {
    const c = loadConfig({
      LLM_BASE_URL: 'http://llm.local/v1/',
      VISION_MODEL: 'v',
      AUDIO_BASE_URL: 'http://audio/v1',
    });
    expect(c.llm.baseUrl).toBe('http://llm.local/v1');
    expect(c.vision).toMatchObject({ baseUrl: 'http://llm.local/v1', model: 'v' });
    expect(c.audio.baseUrl).toBe('http://audio/v1');
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      loadConfig(
        { PORT: 'eighty', SEARCH_PROVIDER: 'bing', DEBUG: 'maybe', DATABASE_URL: 'mysql://x' },
        { searchProviders: ['wikipedia', 'local'] },
      );
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    for (const name of ['PORT', 'SEARCH_PROVIDER', 'DEBUG', 'DATABASE_URL']) expect(problems).toContain(name);
    expect(problems).toContain('SEARCH_PROVIDER: must be one of wikipedia, local');
  });

  it('checks SEARCH_PROVIDER against the names it is given, and only then', () => {
    expect(() => loadConfig({ SEARCH_PROVIDER: 'bing' }, { searchProviders: ['wikipedia'] })).toThrow(ConfigError);
    expect(loadConfig({ SEARCH_PROVIDER: 'bing' }).search.provider).toBe('bing');
    expect(loadConfig({}, { searchProviders: ['wikipedia'] }).search.provider).toBe('wikipedia');
  });

  it('turns a quota off with 0 and refuses a negative one', () => {
    expect(loadConfig({ RUNS_PER_KEY_PER_HOUR: '0' }).quotas.runsPerHour).toBe(0);
    expect(() => loadConfig({ SEARCHES_PER_KEY_PER_MINUTE: '-1' })).toThrow(/SEARCHES_PER_KEY_PER_MINUTE/);
    expect(() => loadConfig({ LLM_ROUTES_MAX_CONCURRENCY: '0' })).toThrow(/LLM_ROUTES_MAX_CONCURRENCY/);
  });

  it('reads booleans and numbers', () => {
    const c = loadConfig({ DEBUG: 'true', CRAWLER_RESPECT_ROBOTS: 'false', WORKER_CONCURRENCY: '5', PORT: '0' });
    expect(c.debug).toBe(true);
    expect(c.crawler.respectRobots).toBe(false);
    expect(c.workerConcurrency).toBe(5);
    expect(c.port).toBe(0);
  });
});
