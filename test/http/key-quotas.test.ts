import { once } from 'node:events';
import net from 'node:net';
import type { Express } from 'express';
import { Redis } from 'ioredis';
import request from 'supertest';
import { QUOTA_REDIS_TIMEOUT_MS, createApp } from '@research/http';
import { startFakeWikipediaSearch, type FakeWikipediaSearch } from '../fakes/fake-wikipedia-search';
import { TEST_REDIS_URL, clearRedisPrefix, uniqueRedisPrefix } from '../support/redis';
import { buildTestApp, unusedPort, type TestApp } from './support';

/** A Redis connection as an API process opens it (fails fast, no offline queue), once it is ready. */
async function apiRedis(url = TEST_REDIS_URL): Promise<Redis> {
  // disconnectTimeout: a connection that never came up leaves no timer behind it at close.
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, disconnectTimeout: 50 });
  redis.on('error', () => {});
  if (url === TEST_REDIS_URL && redis.status !== 'ready') await once(redis, 'ready');
  return redis;
}

describe('per-key quotas of run creation and search', () => {
  const quotaPrefix = uniqueRedisPrefix('quota');
  let wiki: FakeWikipediaSearch;
  let t: TestApp;
  const connections: Redis[] = [];
  // Two API processes: each its own app (own quota objects, own Redis connection), one Redis between them.
  let apiA: Express;
  let apiB: Express;

  beforeAll(async () => {
    wiki = await startFakeWikipediaSearch({
      documents: { de: [{ url: '', title: 'Telearbeit', text: 'Telearbeit und Homeoffice.' }] },
    });
    t = await buildTestApp('quotas', {
      env: {
        REDIS_PREFIX: quotaPrefix,
        RUNS_PER_KEY_PER_MINUTE: '3',
        RUNS_PER_KEY_PER_HOUR: '5',
        SEARCHES_PER_KEY_PER_MINUTE: '2',
        WIKIPEDIA_API_URL: wiki.apiUrlTemplate,
        SEARCH_MAX_RETRIES: '0',
      },
    });
    const [a, b] = await Promise.all([apiRedis(), apiRedis()]);
    connections.push(a, b);
    apiA = createApp({ ...t.ctx, redis: a });
    apiB = createApp({ ...t.ctx, redis: b });
  });
  afterAll(async () => {
    for (const redis of connections) redis.disconnect();
    await clearRedisPrefix(quotaPrefix);
    await t.close();
    await wiki.close();
  });

  const create = (app: Express, key: string, query = 'Wie wirkt Homeoffice auf die Produktivität?') =>
    request(app).post('/v1/research').set('X-API-Key', key).send({ query });
  const runsOf = async (userId: string) =>
    Number(
      (
        await t.db
          .selectFrom('research_runs')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('owner_user_id', '=', userId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('counts a key’s runs across API processes and answers 429 with Retry-After over the minute quota', async () => {
    const user = await t.createUser('quota-runs');
    await create(apiA, user.key).expect(200);
    await create(apiB, user.key).expect(200);
    await create(apiA, user.key).expect(200);

    const refused = await create(apiB, user.key).expect(429);
    expect(refused.body).toEqual({
      detail: expect.stringMatching(
        /^Too many research runs created with this API key: at most 3 per minute\. Retry in \d+ s\.$/,
      ),
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.detail).toContain(`Retry in ${retryAfter} s.`);
    await create(apiA, user.key).expect(429);
    // Refused requests store nothing.
    expect(await runsOf(user.id)).toBe(3);

    // Invalid requests are answered as before and cost nothing; another key has its own quota.
    await request(apiA).post('/v1/research').set('X-API-Key', user.key).send({}).expect(422);
    await create(apiA, t.other.key).expect(200);
  });

  it('holds the hour quota as well', async () => {
    const user = await t.createUser('quota-hour');
    const redis = await apiRedis();
    connections.push(redis);
    // The minute window off: only the hour's 5 apply.
    const hourly = createApp({
      ...t.ctx,
      redis,
      config: { ...t.ctx.config, quotas: { ...t.ctx.config.quotas, runsPerMinute: 0 } },
    });
    for (let i = 0; i < 5; i++) await create(hourly, user.key).expect(200);
    const refused = await create(hourly, user.key).expect(429);
    expect(refused.body.detail).toMatch(/: at most 5 per hour\. Retry in \d+ s\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(60);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(3600);
  });

  it('counts searches per key across processes, and a refused search never reaches the provider', async () => {
    const user = await t.createUser('quota-search');
    const search = (app: Express) =>
      request(app).post('/search').set('X-API-Key', user.key).send({ query: 'Homeoffice', max_results: 1 });
    await search(apiA).expect(200);
    await search(apiB).expect(200);
    const calls = wiki.requests.length;
    const refused = await search(apiA).expect(429);
    expect(refused.body.detail).toMatch(
      /^Too many searches with this API key: at most 2 per minute\. Retry in \d+ s\.$/,
    );
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(wiki.requests.length).toBe(calls);
    // A body that fails validation, or names a provider without settings, is a 422, not a search.
    await request(apiB).post('/search').set('X-API-Key', user.key).send({ query: ' ' }).expect(422);
    await request(apiB)
      .post('/search')
      .set('X-API-Key', user.key)
      .send({ query: 'Homeoffice', provider: 'brave' })
      .expect(422, { detail: 'provider: brave is not configured on this service' });
    await request(apiB).post('/search').set('X-API-Key', t.admin.key).send({ query: 'Homeoffice' }).expect(200);
  });

  it('counts in memory while Redis cannot answer: runs are still accepted and the quota still holds', async () => {
    const down = await apiRedis(`redis://127.0.0.1:${await unusedPort()}`);
    connections.push(down);
    const app = createApp({ ...t.ctx, redis: down });
    const user = await t.createUser('quota-down');
    for (let i = 0; i < 3; i++) await create(app, user.key).expect(200);
    const refused = await create(app, user.key).expect(429);
    expect(refused.headers['retry-after']).toBeDefined();
  });

  it('counts in memory while Redis accepts commands and never answers them', async () => {
    // A Redis that connects and then stalls (a paused server): every command waits forever.
    const sockets = new Set<net.Socket>();
    const stalled = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const redis = new Redis(`redis://127.0.0.1:${(stalled.address() as net.AddressInfo).port}`, {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      // Up as soon as connected: no handshake the stalled server would leave unanswered.
      enableReadyCheck: false,
      disableClientInfo: true,
      disconnectTimeout: 50,
    });
    redis.on('error', () => {});
    try {
      if (redis.status !== 'ready') await once(redis, 'ready');
      const app = createApp({ ...t.ctx, redis });
      const user = await t.createUser('quota-stalled');
      const started = Date.now();
      for (let i = 0; i < 3; i++) await create(app, user.key).expect(200);
      await create(app, user.key).expect(429);
      // Each window of each request waited at most the quota's Redis timeout, not for Redis.
      expect(Date.now() - started).toBeLessThan(4 * 2 * QUOTA_REDIS_TIMEOUT_MS + 2000);
    } finally {
      redis.disconnect();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => stalled.close(resolve));
    }
  });

  it('counts in memory without Redis (embedded mode)', async () => {
    const app = createApp(t.ctx);
    const user = await t.createUser('quota-embedded');
    for (let i = 0; i < 3; i++) await create(app, user.key).expect(200);
    await create(app, user.key).expect(429);
  });
});
