import request from 'supertest';
import { Redis } from 'ioredis';
import { connectPostgres } from '@research/database';
import { classifyError } from '@research/http';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { freePort } from '../support/processes';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { buildTestApp, type TestApp } from './support';

// The app's database is reached through a loopback proxy the test cuts: what clients see when Postgres
// restarts or its host goes away. The shared Postgres is never touched.
describe('requests while a dependency is unreachable', () => {
  let backing: TestDatabase;
  let proxy: TcpProxy;
  let app: TestApp;
  let closePool: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    backing = await createTestDatabase('outage');
    const target = new URL(backing.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(backing.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const handle = connectPostgres(proxied.toString(), { max: 4 });
    closePool = handle.close;
    app = await buildTestApp('outage', { database: { url: proxied.toString(), db: handle.db, drop: handle.close } });
  });
  afterAll(async () => {
    await app?.close();
    await closePool?.();
    await proxy?.close();
    await backing?.drop();
  });

  it('answers 503 with Retry-After and a detail while Postgres is down, never 500, and 200 once it is back', async () => {
    const key = app.owner.key;
    await request(app.app).get('/v1/research').set('X-API-Key', key).expect(200);
    proxy.cut();
    try {
      for (const [method, path] of [
        ['get', '/v1/research'],
        ['get', '/v1/research/00000000-0000-4000-8000-000000000000/status'],
        ['post', '/v1/research'],
      ] as const) {
        const pending = request(app.app)[method](path).set('X-API-Key', key);
        const res = await (method === 'post' ? pending.send({ query: 'photosynthesis' }) : pending);
        expect({ path, status: res.status }).toEqual({ path, status: 503 });
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body).toEqual({ detail: expect.stringMatching(/unavailable/) });
      }
      // The API process itself answers.
      await request(app.app).get('/health').expect(200);
    } finally {
      proxy.restore();
    }
    await request(app.app).get('/v1/research').set('X-API-Key', key).expect(200);
  });

  it('classifies the errors of an unreachable Redis as 503, and an ordinary error as 500', async () => {
    const redis = new Redis(`redis://127.0.0.1:${await freePort()}`, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      lazyConnect: true,
      retryStrategy: () => null,
    });
    redis.on('error', () => undefined);
    const error = await redis.get('k').catch((e: unknown) => e);
    redis.disconnect();
    expect(classifyError(error)).toMatchObject({ status: 503, retryAfterSeconds: 5 });
    expect(classifyError(new Error('boom'))).toEqual({ status: 500, detail: 'Internal server error' });
  });
});
