import request from 'supertest';
import { DEPTH_BUDGETS, Details } from '@research/core';
import { findRetentionRecord, findRunById } from '@research/database';
import { buildTestApp, type TestApp } from './support';

describe('POST /v1/research', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('create');
  });
  afterAll(() => t.close());

  const post = (body: unknown, key = t.owner.key) =>
    request(t.app)
      .post('/v1/research')
      .set('X-API-Key', key)
      .send(body as object);

  it('creates a run in state created, owned by the caller, and answers with the SPEC shape', async () => {
    const res = await post({ query: 'Wie wirkt Homeoffice auf Produktivität?' }).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['depth', 'query', 'research_id', 'state', 'status']);
    expect(res.body).toMatchObject({
      status: 'pending',
      query: 'Wie wirkt Homeoffice auf Produktivität?',
      depth: 'normal',
      state: 'created',
    });
    expect(res.body.research_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const run = await findRunById(t.db, res.body.research_id);
    expect(run).toMatchObject({
      state: 'created',
      language: 'de',
      depth: 'normal',
      owner_user_id: t.owner.id,
      is_hidden: false,
      extra_queries: null,
      request_id: res.headers['x-request-id'],
    });
    expect(run!.budget).toEqual(DEPTH_BUDGETS.normal);
    const record = await findRetentionRecord(t.db, res.body.research_id);
    expect(record).toMatchObject({
      owner_user_id: t.owner.id,
      query: 'Wie wirkt Homeoffice auf Produktivität?',
      is_hidden: false,
      password_hash: null,
    });
  });

  it('enqueues the BullMQ job with the research id as job id and marks the run enqueued', async () => {
    const res = await post({ query: 'Quantencomputer Stand der Technik', depth: 'quick' })
      .set('X-Request-ID', 'req-create-1')
      .expect(200);
    const job = await t.findJob(res.body.research_id);
    expect(job).toEqual({
      id: res.body.research_id,
      data: { research_id: res.body.research_id, request_id: 'req-create-1' },
    });
    const run = await findRunById(t.db, res.body.research_id);
    expect(run!.enqueued_at).toBeInstanceOf(Date);
    expect(run!.request_id).toBe('req-create-1');
  });

  it.each(['quick', 'normal', 'deep'] as const)('stores the %s budget', async (depth) => {
    const res = await post({ query: 'Budget', depth }).expect(200);
    expect(res.body.depth).toBe(depth);
    expect((await findRunById(t.db, res.body.research_id))!.budget).toEqual(DEPTH_BUDGETS[depth]);
  });

  it('stores language and extra_queries, and ignores unknown fields', async () => {
    const res = await post({
      query: 'Solar',
      language: 'en',
      extra_queries: ['solar panels efficiency', 'photovoltaik'],
      colour: 'blue',
    }).expect(200);
    const run = await findRunById(t.db, res.body.research_id);
    expect(run).toMatchObject({ language: 'en', extra_queries: ['solar panels efficiency', 'photovoltaik'] });
    expect(run).not.toHaveProperty('colour');
  });

  it('accepts extra_queries null and a +json content type', async () => {
    const res = await request(t.app)
      .post('/v1/research')
      .set('X-API-Key', t.owner.key)
      .set('Content-Type', 'application/vnd.api+json')
      .send(JSON.stringify({ query: 'Wind', extra_queries: null }))
      .expect(200);
    expect((await findRunById(t.db, res.body.research_id))!.extra_queries).toBeNull();
  });

  it('counts the 2000-character limit in Unicode characters, not UTF-16 units', async () => {
    const emoji = '🙂'.repeat(2000);
    const res = await post({ query: emoji }).expect(200);
    expect(res.body.query).toBe(emoji);
    await post({ query: emoji + 'x' }).expect(422, { detail: 'query: must be 1 to 2000 characters' });
    await post({ query: 'a'.repeat(2001) }).expect(422, { detail: 'query: must be 1 to 2000 characters' });
  });

  it('accepts every well-formed character beyond the Basic Multilingual Plane', async () => {
    const query = 'Homeoffice 🙂 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \u{10FFFD} 中文';
    const res = await post({ query, extra_queries: ['😀 emoji'] }).expect(200);
    expect(res.body.query).toBe(query);
    expect((await findRunById(t.db, res.body.research_id))!.query).toBe(query);
  });

  describe('refuses with 400 a depth that is not quick, normal or deep, and creates nothing', () => {
    it.each(['shallow', 'QUICK', '', 'deep '])('depth %j', async (depth) => {
      const before = await t.db
        .selectFrom('research_runs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      await post({ query: 'Tiefe', depth }).expect(400, { detail: Details.invalidDepth(depth) });
      const after = await t.db
        .selectFrom('research_runs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('uses the exact German text of SPEC 7', async () => {
      await post({ query: 'x', depth: 'extreme' }).expect(400, {
        detail: "Ungültige Tiefe 'extreme'. Gültig: 'quick', 'normal', 'deep'.",
      });
    });
  });

  describe('refuses a body that breaks a field rule with 422 and creates nothing', () => {
    const cases: Array<[string, unknown, string]> = [
      ['a missing query', {}, 'query: Required'],
      ['a numeric query', { query: 42 }, 'query: must be a string'],
      ['a null query', { query: null }, 'query: must be a string'],
      ['an empty query', { query: '' }, 'query: must be 1 to 2000 characters'],
      ['a blank query', { query: '   \n\t ' }, 'query: must not be blank'],
      ['a NUL character in the query', { query: 'a\u0000b' }, 'query: must not contain NUL characters'],
      ['a bare NUL query', { query: '\u0000' }, 'query: must not contain NUL characters'],
      // Sent as the JSON escape "\ud800x": no UTF-8 exists for it, so no provider could be asked.
      ['a lone surrogate in the query', { query: '\ud800x' }, 'query: must be valid Unicode (no unpaired surrogates)'],
      [
        'a lone low surrogate in an extra query',
        { query: 'x', extra_queries: ['ok', 'a\udc00'] },
        'extra_queries.1: must be valid Unicode (no unpaired surrogates)',
      ],
      [
        'surrogates in the wrong order in the language',
        { query: 'x', language: '\udc00\ud800' },
        'language: must be valid Unicode (no unpaired surrogates)',
      ],
      ['a non-string depth', { query: 'x', depth: 3 }, 'depth: must be a string'],
      ['a null depth', { query: 'x', depth: null }, 'depth: must be a string'],
      ['a numeric language', { query: 'x', language: 7 }, 'language: must be a string'],
      ['an empty language', { query: 'x', language: '' }, 'language: must be 1 to 64 characters'],
      ['a long language', { query: 'x', language: 'l'.repeat(65) }, 'language: must be 1 to 64 characters'],
      [
        'a NUL character in the language',
        { query: 'x', language: 'd\u0000e' },
        'language: must not contain NUL characters',
      ],
      ['extra_queries not a list', { query: 'x', extra_queries: 'abc' }, 'extra_queries: must be a list'],
      [
        '21 extra queries',
        { query: 'x', extra_queries: Array.from({ length: 21 }, (_, i) => `q${i}`) },
        'extra_queries: must have at most 20 items',
      ],
      ['a non-string extra query', { query: 'x', extra_queries: ['ok', 5] }, 'extra_queries.1: must be a string'],
      ['an empty extra query', { query: 'x', extra_queries: [''] }, 'extra_queries.0: must be 1 to 500 characters'],
      [
        'a long extra query',
        { query: 'x', extra_queries: ['e'.repeat(501)] },
        'extra_queries.0: must be 1 to 500 characters',
      ],
      [
        'a NUL in an extra query',
        { query: 'x', extra_queries: ['a\u0000'] },
        'extra_queries.0: must not contain NUL characters',
      ],
    ];
    it.each(cases)('%s', async (_name, body, detail) => {
      const before = await t.db
        .selectFrom('research_runs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      await post(body).expect(422, { detail });
      const after = await t.db
        .selectFrom('research_runs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('refuses a missing body with 422 body: Required', async () => {
      await request(t.app).post('/v1/research').set('X-API-Key', t.owner.key).expect(422, { detail: 'body: Required' });
    });

    it('treats a body that is not JSON (text/plain) as absent', async () => {
      await request(t.app)
        .post('/v1/research')
        .set('X-API-Key', t.owner.key)
        .set('Content-Type', 'text/plain')
        .send('{"query":"x"}')
        .expect(422, { detail: 'body: Required' });
    });

    it.each([['[1,2]'], ['"just a string"'], ['null'], ['17']])(
      'refuses the JSON body %s with 422 body: must be a JSON object',
      async (raw) => {
        await request(t.app)
          .post('/v1/research')
          .set('X-API-Key', t.owner.key)
          .set('Content-Type', 'application/json')
          .send(raw)
          .expect(422, { detail: 'body: must be a JSON object' });
      },
    );

    it('validates the body before the depth (a 422 wins over the 400)', async () => {
      await post({ query: '', depth: 'nope' }).expect(422, { detail: 'query: must be 1 to 2000 characters' });
    });
  });

  it('refuses unparseable JSON with 400', async () => {
    await request(t.app)
      .post('/v1/research')
      .set('X-API-Key', t.owner.key)
      .set('Content-Type', 'application/json')
      .send('{"query": "x",')
      .expect(400, { detail: 'Malformed JSON body.' });
  });

  it('refuses a body over 1 MiB with 413', async () => {
    const body = JSON.stringify({ query: 'x', padding: 'p'.repeat(1024 * 1024) });
    await request(t.app)
      .post('/v1/research')
      .set('X-API-Key', t.owner.key)
      .set('Content-Type', 'application/json')
      .send(body)
      .expect(413, { detail: 'Request body too large (limit 1 MiB).' });
  });

  it('answers within the enqueue timeout and leaves the run created when the queue is unreachable', async () => {
    const down = await buildTestApp('create-down', { redisUrl: 'redis://127.0.0.1:1', database: t.database });
    try {
      const started = Date.now();
      const res = await request(down.app)
        .post('/v1/research')
        .set('X-API-Key', down.owner.key)
        .send({ query: 'Redis ist weg' })
        .expect(200);
      expect(Date.now() - started).toBeLessThan(4000);
      expect(res.body).toMatchObject({ status: 'pending', state: 'created' });
      const run = await findRunById(t.db, res.body.research_id);
      expect(run).toMatchObject({ state: 'created', enqueued_at: null, owner_user_id: down.owner.id });
      expect(await findRetentionRecord(t.db, res.body.research_id)).toBeDefined();
      expect(down.enqueueFailures).toEqual([res.body.research_id]);
      await request(down.app).get(`/v1/research/${res.body.research_id}`).set('X-API-Key', down.owner.key).expect(200);
    } finally {
      await down.close();
    }
  });
});
