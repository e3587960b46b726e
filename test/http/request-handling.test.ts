import request from 'supertest';
import { connectPostgres } from '@research/database';
import { createApp } from '@research/http';
import { listenDroppingEveryConnection } from '../support/loopback';
import { PASSWORD, buildTestApp, createCapturingLogger, insertTestRun, type LogCapture, type TestApp } from './support';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('request handling', () => {
  let t: TestApp;
  let logs: LogCapture;
  beforeAll(async () => {
    logs = createCapturingLogger();
    t = await buildTestApp('reqhandling', { logger: logs.logger });
  });
  afterAll(() => t.close());

  describe('X-Request-ID', () => {
    it('echoes an acceptable client id', async () => {
      const res = await request(t.app).get('/health').set('X-Request-ID', 'client-Req_1.2').expect(200);
      expect(res.headers['x-request-id']).toBe('client-Req_1.2');
    });

    it('echoes a 128-character id', async () => {
      const id = 'a'.repeat(128);
      expect((await request(t.app).get('/health').set('X-Request-ID', id)).headers['x-request-id']).toBe(id);
    });

    it('generates a UUID when the client sends none', async () => {
      expect((await request(t.app).get('/health')).headers['x-request-id']).toMatch(UUID);
    });

    it.each([['a'.repeat(129)], ['has space'], ['semi;colon'], ['ümlaut'], ['']])(
      'replaces the unacceptable id %j with a UUID',
      async (id) => {
        const res = await request(t.app).get('/health').set('X-Request-ID', id);
        expect(res.headers['x-request-id']).toMatch(UUID);
      },
    );

    it('is set on errors too (401, 404, 422)', async () => {
      for (const res of [
        await request(t.app).get('/v1/research').set('X-Request-ID', 'e1'),
        await request(t.app).get('/nowhere').set('X-Request-ID', 'e1'),
        await request(t.app).post('/v1/research').set('X-API-Key', t.owner.key).set('X-Request-ID', 'e1').send({}),
      ]) {
        expect(res.headers['x-request-id']).toBe('e1');
      }
    });
  });

  describe('access log', () => {
    it('writes one line per request with method, path without query, status, duration and request id', async () => {
      await request(t.app)
        .get('/v1/research?limit=5&secret=abc')
        .set('X-API-Key', t.owner.key)
        .set('X-Request-ID', 'log-line-1')
        .expect(200);
      const lines = logs.entries.filter((e) => e.request_id === 'log-line-1');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({
        message: 'request',
        method: 'GET',
        path: '/v1/research',
        status: 200,
        request_id: 'log-line-1',
      });
      expect(typeof lines[0]!.duration_ms).toBe('number');
      expect(JSON.stringify(lines[0])).not.toContain('secret');
    });

    it('never logs API keys, passwords, password hashes or headers', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id });
      await request(t.app)
        .put(`/v1/research/${id}/deletion-protection`)
        .set('X-API-Key', t.owner.key)
        .send({ password: PASSWORD })
        .expect(200);
      await request(t.app)
        .delete(`/v1/research/${id}`)
        .set('X-API-Key', t.owner.key)
        .send({ password: 'wrong password here' })
        .expect(403);
      await request(t.app)
        .delete(`/v1/research/${id}`)
        .set('X-API-Key', t.owner.key)
        .send({ password: PASSWORD })
        .expect(200);
      await request(t.app).get('/v1/research').set('X-API-Key', 'rsk_badbadbadbadbad0_nope').expect(401);
      const text = logs.text();
      for (const secret of [
        t.owner.key,
        // The secret part alone (rsk_<16 hex id>_<secret>; the secret may itself contain '_').
        t.owner.key.slice('rsk_0123456789abcdef_'.length),
        PASSWORD,
        'wrong password here',
        'argon2',
        'rsk_badbad',
        'x-api-key',
        'X-API-Key',
      ]) {
        expect(text).not.toContain(secret);
      }
    });
  });

  describe('CORS', () => {
    it.each(['http://localhost:3000', 'http://localhost:5173', 'http://127.0.0.1:3000'])(
      'answers a preflight from %s with credentials, the method and the requested headers',
      async (origin) => {
        const res = await request(t.app)
          .options('/v1/research/00000000-0000-4000-8000-000000000000')
          .set('Origin', origin)
          .set('Access-Control-Request-Method', 'DELETE')
          .set('Access-Control-Request-Headers', 'x-api-key,content-type,x-custom-header');
        expect(res.status).toBe(204);
        expect(res.headers['access-control-allow-origin']).toBe(origin);
        expect(res.headers['access-control-allow-credentials']).toBe('true');
        expect(res.headers['access-control-allow-methods']).toContain('DELETE');
        expect(res.headers['access-control-allow-headers']).toBe('x-api-key,content-type,x-custom-header');
      },
    );

    it('exposes X-Request-ID on a simple request from an allowed origin', async () => {
      const res = await request(t.app).get('/health').set('Origin', 'http://localhost:3000').expect(200);
      expect(res.headers['access-control-allow-origin']).toBe('http://localhost:3000');
      expect(res.headers['access-control-allow-credentials']).toBe('true');
      expect(res.headers['access-control-expose-headers']).toBe('X-Request-ID');
    });

    it('sends no CORS headers to any other origin', async () => {
      for (const origin of ['http://evil.example', 'http://localhost:3001', 'https://localhost:3000', 'null']) {
        const simple = await request(t.app).get('/health').set('Origin', origin).expect(200);
        const preflight = await request(t.app)
          .options('/v1/research')
          .set('Origin', origin)
          .set('Access-Control-Request-Method', 'POST')
          .set('Access-Control-Request-Headers', 'x-api-key');
        for (const res of [simple, preflight]) {
          expect(Object.keys(res.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
        }
      }
    });
  });

  describe('unknown routes', () => {
    it.each([
      ['get', '/nowhere'],
      ['get', '/v1'],
      ['get', '/v2/research'],
      ['post', '/research'],
      ['get', '/healthz'],
    ] as const)('%s %s answers 404 Not Found without a key', async (method, path) => {
      await request(t.app)[method](path).expect(404, { detail: 'Not Found' });
    });

    it('answers 404 for an unknown method or sub-path of a keyed group once the key is valid', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id });
      await request(t.app)
        .patch(`/v1/research/${id}`)
        .set('X-API-Key', t.owner.key)
        .expect(404, { detail: 'Not Found' });
      await request(t.app)
        .get(`/v1/research/${id}/unknown`)
        .set('X-API-Key', t.owner.key)
        .expect(404, { detail: 'Not Found' });
    });
  });

  describe('server errors', () => {
    it('answers 500 with only "Internal server error" and logs the error with the request id', async () => {
      const capture = createCapturingLogger();
      // A fault of the code, not of a dependency: every query's result handling throws.
      const broken = t.db.withPlugin({
        transformQuery: (args) => args.node,
        transformResult: async () => {
          throw new Error('boom at step.ts:12');
        },
      });
      const app = createApp({ ...t.ctx, db: broken, logger: capture.logger });
      const res = await request(app)
        .get('/v1/research')
        .set('X-API-Key', t.owner.key)
        .set('X-Request-ID', 'boom-1')
        .expect(500);
      expect(res.body).toEqual({ detail: 'Internal server error' });
      expect(res.text).not.toMatch(/boom|at .*\.ts|stack/);
      const errorLine = capture.entries.find((e) => e.level === 'error' && e.request_id === 'boom-1');
      expect(errorLine).toMatchObject({
        message: 'request failed',
        error: { message: expect.stringContaining('boom') },
      });
      expect(capture.text()).not.toContain(t.owner.key);
    });

    it('answers 503 with Retry-After, without internals, when the database cannot be reached', async () => {
      const capture = createCapturingLogger();
      const dropping = await listenDroppingEveryConnection();
      const handle = connectPostgres(`postgres://postgres@127.0.0.1:${dropping.port}/none`);
      try {
        const app = createApp({ ...t.ctx, db: handle.db, logger: capture.logger });
        const res = await request(app)
          .get('/v1/research')
          .set('X-API-Key', t.owner.key)
          .set('X-Request-ID', 'down-1')
          .expect(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body).toEqual({ detail: expect.stringMatching(/unavailable/) });
        expect(res.text).not.toMatch(/Connection terminated|at .*\.ts|stack/);
        const line = capture.entries.find((e) => e.request_id === 'down-1' && e.level === 'warn');
        expect(line).toMatchObject({ error: { message: expect.stringContaining('Connection terminated') } });
        expect(capture.text()).not.toContain(t.owner.key);
      } finally {
        await handle.close();
        await dropping.close();
      }
    });
  });
});
