import request from 'supertest';
import { startFakeWikipediaSearch, type FakeWikipediaSearch } from '../../fakes/fake-wikipedia-search';
import { buildMountedApp, type MountedTestApp } from './support';

describe('POST /search and POST /research/planner', () => {
  let wiki: FakeWikipediaSearch;
  let m: MountedTestApp;
  beforeAll(async () => {
    wiki = await startFakeWikipediaSearch({
      documents: {
        de: [
          { url: '', title: 'Telearbeit', text: 'Telearbeit und Homeoffice: Studien zur Produktivität.' },
          { url: '', title: 'Produktivität', text: 'Produktivität im Homeoffice stieg laut Studie.' },
        ],
      },
    });
    m = await buildMountedApp('mountedsearch', {
      env: { WIKIPEDIA_API_URL: wiki.apiUrlTemplate, SEARCH_MAX_RETRIES: '0', SEARCH_TIMEOUT_MS: '2000' },
    });
  });
  afterAll(async () => {
    await m.close();
    await wiki.close();
  });
  const post = (path: string, body: unknown, key: string | null = m.t.owner.key) => {
    const r = request(m.app).post(path);
    return (key ? r.set('X-API-Key', key) : r).send(body as object);
  };

  it('answers normalised results from the configured provider', async () => {
    const res = await post('/search', { query: 'Homeoffice Produktivität', max_results: 5 }).expect(200);
    expect(res.body).toMatchObject({ query: 'Homeoffice Produktivität', provider: 'wikipedia', language: 'de' });
    expect(res.body.total).toBe(res.body.results.length);
    expect(res.body.results.find((r: { title: string }) => r.title === 'Produktivität')).toEqual({
      url: `${wiki.origin}/de/wiki/Produktivit%C3%A4t`,
      title: 'Produktivität',
      snippet: expect.not.stringContaining('<span'),
      published_at: expect.any(String),
      provider: 'wikipedia',
      rank: expect.any(Number),
    });
    const one = await post('/search', { query: 'Homeoffice', max_results: 1 }).expect(200);
    expect(one.body.results).toHaveLength(1);
  });

  it.each([
    ['no query', {}, 'query: Required'],
    ['a blank query', { query: '   ' }, 'query: must not be blank'],
    ['max_results 0', { query: 'x', max_results: 0 }, 'max_results: must be at least 1'],
    ['max_results 21', { query: 'x', max_results: 21 }, 'max_results: must be at most 20'],
    ['max_results as text', { query: 'x', max_results: '5' }, 'max_results: must be a number'],
    [
      'an unknown provider',
      { query: 'x', provider: 'google' },
      'provider: must be one of wikipedia, searxng, brave, tavily, local',
    ],
    [
      'a provider without settings',
      { query: 'x', provider: 'brave' },
      'provider: brave is not configured on this service',
    ],
  ])('refuses %s with 422', async (_label, body, detail) => {
    await post('/search', body).expect(422, { detail });
  });

  it('refuses a lone surrogate with 422 without asking the provider (not a 503 after retries)', async () => {
    const before = wiki.requests.length;
    const started = Date.now();
    // supertest sends the string as the JSON escape "\ud800x".
    await post('/search', { query: '\ud800x' }).expect(422, {
      detail: 'query: must be valid Unicode (no unpaired surrogates)',
    });
    await post('/research/planner', { query: 'x', extra_queries: ['\ud800x'] }).expect(422, {
      detail: 'extra_queries.0: must be valid Unicode (no unpaired surrogates)',
    });
    expect(wiki.requests.length).toBe(before);
    expect(Date.now() - started).toBeLessThan(2_000);
    // A well-formed pair is a character like any other.
    await post('/search', { query: 'Homeoffice 🙂' }).expect(200);
  });

  it('needs a key', async () => {
    await post('/search', { query: 'x' }, null).expect(401);
    await post('/research/planner', { query: 'x' }, null).expect(401);
  });

  it('answers 503 naming the provider when it fails', async () => {
    const down = await buildMountedApp('mountedsearchdown', {
      env: {
        WIKIPEDIA_API_URL: 'http://127.0.0.1:1/{lang}/w/api.php',
        SEARCH_MAX_RETRIES: '0',
        SEARCH_TIMEOUT_MS: '1000',
      },
    });
    try {
      const res = await request(down.app)
        .post('/search')
        .set('X-API-Key', down.t.owner.key)
        .send({ query: 'x' })
        .expect(503);
      expect(res.body.detail).toMatch(/^Search provider wikipedia /);
    } finally {
      await down.close();
    }
  });

  it('plans a question with the pipeline planner (extractive without an LLM)', async () => {
    const res = await post('/research/planner', {
      query: 'Wie wirkt sich Homeoffice auf die Produktivität aus?',
      depth: 'quick',
      extra_queries: ['Homeoffice Studie 2021'],
    }).expect(200);
    expect(res.body).toMatchObject({ depth: 'quick', language: 'de', engine: 'extractive' });
    expect(res.body.plan.query).toBe('Wie wirkt sich Homeoffice auf die Produktivität aus?');
    expect(res.body.plan.search_queries.length).toBeGreaterThan(0);
    expect(res.body.plan.search_queries.map((q: { query: string }) => q.query)).toContain('Homeoffice Studie 2021');
    expect(res.body.plan.confidence).toBeGreaterThanOrEqual(0);
  });

  it('refuses an unknown depth with the 400 of POST /v1/research and bad fields with 422', async () => {
    await post('/research/planner', { query: 'x', depth: 'tief' }).expect(400, {
      detail: "Ungültige Tiefe 'tief'. Gültig: 'quick', 'normal', 'deep'.",
    });
    await post('/research/planner', { query: '' }).expect(422, { detail: 'query: must be 1 to 2000 characters' });
    await post('/research/planner', { query: 'x', extra_queries: 'a' }).expect(422, {
      detail: 'extra_queries: must be a list',
    });
  });
});
