import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { VERSION } from '@research/core';
import { connectPostgres, countRunningRuns, findRunById } from '@research/database';
import { createApp } from '@research/http';
import { createMetrics, createSilentLogger, startFleetMetrics, type FleetMetrics } from '@research/observability';
import { clearRedisPrefix, connectTestRedis, uniqueRedisPrefix } from '../support/redis';
import { listenDroppingEveryConnection, listenOnLoopback } from '../support/loopback';
import { SPEC_METRIC_NAMES } from '../support/metric-names';
import { buildTestApp, insertTestRun, startFakeLlm, type TestApp } from './support';

const METRIC_NAMES = SPEC_METRIC_NAMES;

const LLM_KEY = 'sk-test-very-secret-llm-key-4711';

/** A search provider's API on loopback (the Wikipedia provider pointed at it): it answers, whatever it is asked. */
async function startSearchApi(status = 200) {
  const server = http.createServer((_req, res) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end('{}'),
  );
  return listenOnLoopback(server);
}

describe('system endpoints', () => {
  let t: TestApp;
  let searchApi: Awaited<ReturnType<typeof startSearchApi>>;
  /** The configuration every app of these tests gets: its search provider's API is there. */
  let searchEnv: Record<string, string>;
  beforeAll(async () => {
    searchApi = await startSearchApi();
    searchEnv = { WIKIPEDIA_API_URL: `${searchApi.origin}/w/api.php` };
    t = await buildTestApp('system', { env: searchEnv });
  });
  afterAll(async () => {
    await t.close();
    await searchApi.close();
  });

  describe('GET /health', () => {
    it('answers ok with the version, without a key', async () => {
      await request(t.app).get('/health').expect(200, { status: 'ok', version: VERSION });
      expect(VERSION).toMatch(/^\d+\.\d+\.\d+/);
    });
  });

  describe('GET /ready', () => {
    it('is ready with the LLM disabled when none is configured', async () => {
      const res = await request(t.app).get('/ready').expect(200);
      expect(res.body).toEqual({ status: 'ready', database: 'ok', queue: 'ok', search: 'ok', llm: 'disabled' });
    });

    it('checks GET {LLM_BASE_URL}/models with the bearer key and reports the configured model', async () => {
      const llm = await startFakeLlm(200);
      const app = await buildTestApp('ready-llm', {
        database: t.database,
        env: { ...searchEnv, LLM_BASE_URL: llm.url, LLM_API_KEY: LLM_KEY, LLM_MODEL: 'configured-model' },
      });
      try {
        const res = await request(app.app).get('/ready').expect(200);
        expect(res.body).toEqual({
          status: 'ready',
          database: 'ok',
          queue: 'ok',
          search: 'ok',
          llm: 'ok',
          llm_model: 'configured-model',
        });
        expect(llm.requests.at(-1)!.authorization).toBe(`Bearer ${LLM_KEY}`);
        expect(res.text).not.toContain(LLM_KEY);
      } finally {
        await app.close();
        await llm.close();
      }
    });

    it('reports the first listed model when LLM_MODEL is unset, and sends no Authorization without a key', async () => {
      const llm = await startFakeLlm(200, { models: ['llama3.1:8b', 'other'] });
      const app = await buildTestApp('ready-nomodel', {
        database: t.database,
        env: { ...searchEnv, LLM_BASE_URL: llm.url },
      });
      try {
        const res = await request(app.app).get('/ready').expect(200);
        expect(res.body).toMatchObject({ status: 'ready', llm: 'ok', llm_model: 'llama3.1:8b' });
        expect(llm.requests.at(-1)!.authorization).toBeUndefined();
      } finally {
        await app.close();
        await llm.close();
      }
    });

    it('is not_ready with error:500 when the LLM answers 500', async () => {
      const llm = await startFakeLlm(500);
      const app = await buildTestApp('ready-500', {
        database: t.database,
        env: { ...searchEnv, LLM_BASE_URL: llm.url, LLM_MODEL: 'm' },
      });
      try {
        const res = await request(app.app).get('/ready').expect(200);
        expect(res.body).toEqual({ status: 'not_ready', database: 'ok', queue: 'ok', search: 'ok', llm: 'error:500' });
      } finally {
        await app.close();
        await llm.close();
      }
    });

    it('is not_ready with error:<type> when the LLM is unreachable', async () => {
      const down = await listenDroppingEveryConnection();
      const app = await buildTestApp('ready-down', {
        database: t.database,
        env: { ...searchEnv, LLM_BASE_URL: `${down.origin}/v1`, LLM_MODEL: 'm' },
      });
      try {
        const res = await request(app.app).get('/ready').expect(200);
        expect(res.body).toEqual({
          status: 'not_ready',
          database: 'ok',
          queue: 'ok',
          search: 'ok',
          llm: 'error:ConnectionError',
        });
      } finally {
        await app.close();
        await down.close();
      }
    });

    it('is not_ready with error:TimeoutError when the LLM accepts but never answers', async () => {
      const silent = await listenOnLoopback(http.createServer(() => undefined));
      const app = await buildTestApp('ready-silent', {
        database: t.database,
        env: { ...searchEnv, LLM_BASE_URL: `${silent.origin}/v1`, LLM_MODEL: 'm' },
      });
      try {
        const res = await request(app.app).get('/ready').expect(200);
        expect(res.body).toEqual({
          status: 'not_ready',
          database: 'ok',
          queue: 'ok',
          search: 'ok',
          llm: 'error:TimeoutError',
        });
      } finally {
        await app.close();
        await silent.close();
      }
    });

    it('is not_ready with error:<type> when the database is unreachable', async () => {
      const down = await listenDroppingEveryConnection();
      const handle = connectPostgres(`postgres://postgres@127.0.0.1:${down.port}/none`);
      try {
        const app = createApp({ ...t.ctx, db: handle.db });
        const res = await request(app).get('/ready').expect(200);
        expect(res.body).toEqual({
          status: 'not_ready',
          database: 'error:ConnectionError',
          queue: 'ok',
          search: 'ok',
          llm: 'disabled',
        });
      } finally {
        await handle.close();
        await down.close();
      }
    });

    it('is not_ready, naming the search provider, when its API cannot be reached or fails (no internet)', async () => {
      const down = await listenDroppingEveryConnection();
      const failing = await startSearchApi(503);
      try {
        for (const [server, search] of [
          [down, 'error:ConnectionError'],
          [failing, 'error:503'],
        ] as const) {
          const app = await buildTestApp('ready-search', {
            database: t.database,
            env: { WIKIPEDIA_API_URL: `http://127.0.0.1:${server.port}/w/api.php` },
          });
          try {
            const res = await request(app.app).get('/ready').expect(200);
            expect(res.body).toEqual({ status: 'not_ready', database: 'ok', queue: 'ok', search, llm: 'disabled' });
          } finally {
            await app.close();
          }
        }
      } finally {
        await down.close();
        await failing.close();
      }
    });

    it('is ready with the local provider, which needs no network', async () => {
      const corpus = fs.mkdtempSync(path.join(os.tmpdir(), 'ready-local-'));
      const app = await buildTestApp('ready-local', {
        database: t.database,
        env: { SEARCH_PROVIDER: 'local', LOCAL_CORPUS_DIR: corpus },
      });
      try {
        const res = await request(app.app).get('/ready').expect(200);
        expect(res.body).toMatchObject({ status: 'ready', search: 'ok' });
      } finally {
        await app.close();
        fs.rmSync(corpus, { recursive: true, force: true });
      }
    });

    describe('with Redis down', () => {
      let down: TestApp;
      beforeAll(async () => {
        down = await buildTestApp('ready-redis', {
          database: t.database,
          redisUrl: 'redis://127.0.0.1:1',
          env: searchEnv,
        });
      });
      afterAll(() => down.close());

      it('is not_ready with queue error', async () => {
        const res = await request(down.app).get('/ready').expect(200);
        expect(res.body).toEqual({
          status: 'not_ready',
          database: 'ok',
          queue: 'error',
          search: 'ok',
          llm: 'disabled',
        });
      });

      it('still creates runs (state created, 200) and serves reads', async () => {
        const res = await request(down.app)
          .post('/v1/research')
          .set('X-API-Key', down.owner.key)
          .send({ query: 'Ohne Redis' })
          .expect(200);
        expect(res.body.state).toBe('created');
        expect((await findRunById(down.db, res.body.research_id))!.state).toBe('created');
        const status = await request(down.app)
          .get(`/v1/research/${res.body.research_id}/status`)
          .set('X-API-Key', down.owner.key)
          .expect(200);
        expect(status.body).toMatchObject({ state: 'created', is_running: true });
        await request(down.app).get('/v1/research').set('X-API-Key', down.owner.key).expect(200);
      });
    });
  });

  describe('GET /providers', () => {
    it('shows every provider as unavailable when none is configured', async () => {
      await request(t.app)
        .get('/providers')
        .expect(200, { llm: { available: false }, vision: { available: false }, audio: { available: false } });
    });

    it('shows models and concurrency but never URLs, credentials or keys', async () => {
      const app = await buildTestApp('providers', {
        database: t.database,
        env: {
          LLM_BASE_URL: 'http://llm-user:llm-url-password@127.0.0.1:9/v1',
          LLM_API_KEY: LLM_KEY,
          LLM_MODEL: 'qwen2.5:14b',
          LLM_MAX_CONCURRENCY: '3',
          VISION_MODEL: 'llava:13b',
          AUDIO_BASE_URL: 'http://127.0.0.1:10/v1',
          AUDIO_MODEL: 'whisper-1',
          BRAVE_API_KEY: 'brave-secret-key',
        },
      });
      try {
        const res = await request(app.app).get('/providers').expect(200);
        expect(res.body).toEqual({
          llm: { available: true, model: 'qwen2.5:14b', max_concurrency: 3 },
          vision: { available: true, model: 'llava:13b' },
          audio: { available: true, model: 'whisper-1' },
        });
        for (const secret of [LLM_KEY, 'llm-url-password', 'llm-user', '127.0.0.1', 'brave-secret-key', 'http']) {
          expect(res.text).not.toContain(secret);
        }
      } finally {
        await app.close();
      }
    });

    it('shows the LLM with an empty model name when LLM_MODEL is unset, and vision without a model as unavailable', async () => {
      const app = await buildTestApp('providers2', {
        database: t.database,
        env: { ...searchEnv, LLM_BASE_URL: 'http://127.0.0.1:9/v1' },
      });
      try {
        await request(app.app)
          .get('/providers')
          .expect(200, {
            llm: { available: true, model: '', max_concurrency: 4 },
            vision: { available: false },
            audio: { available: false },
          });
      } finally {
        await app.close();
      }
    });
  });

  describe('GET /metrics', () => {
    it('serves the 14 SPEC metrics in Prometheus text format without a key', async () => {
      const res = await request(t.app).get('/metrics').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      for (const name of METRIC_NAMES) expect(res.text).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));
    });

    it('reports active_research_runs as the number of runs in a running state', async () => {
      for (const state of ['created', 'planning', 'searching', 'synthesizing', 'completed', 'failed', 'cancelled']) {
        await insertTestRun(t.db, { owner: t.owner.id, state });
      }
      const running = await countRunningRuns(t.db);
      expect(running).toBeGreaterThanOrEqual(4);
      const res = await request(t.app).get('/metrics').expect(200);
      expect(res.text).toMatch(new RegExp(`^active_research_runs ${running}$`, 'm'));
    });

    it("serves the fleet's totals: every process's published counts, its own included", async () => {
      const prefix = uniqueRedisPrefix('metrics-fleet');
      const redis = connectTestRedis();
      const worker = createMetrics({ defaultMetrics: false });
      const workerFleet = startFleetMetrics({
        redis,
        prefix,
        instanceId: 'worker-1',
        metrics: worker,
        intervalMs: 60_000,
        logger: createSilentLogger(),
      });
      let apiFleet: FleetMetrics | undefined;
      const app = await buildTestApp('metrics-fleet', {
        database: t.database,
        fleetMetrics: async (metrics) => {
          apiFleet ??= startFleetMetrics({
            redis,
            prefix,
            instanceId: 'api-1',
            metrics,
            intervalMs: 60_000,
            logger: createSilentLogger(),
          });
          if (!(await apiFleet.publish())) throw new Error('not published');
          return apiFleet.read();
        },
      });
      try {
        worker.researchFinished('completed', 12);
        worker.researchFinished('completed', 30);
        worker.claimsExtracted(7);
        expect(await workerFleet.publish()).toBe(true);
        app.ctx.metrics.researchFinished('completed', 5);
        const res = await request(app.app).get('/metrics').expect(200);
        expect(res.text).toMatch(/^research_completed_total 3$/m);
        expect(res.text).toMatch(/^claims_extracted_total 7$/m);
        expect(res.text).toMatch(/^research_duration_seconds_sum\{outcome="completed"\} 47$/m);
        expect(res.text).toMatch(/^research_duration_seconds_bucket\{le="15",outcome="completed"\} 2$/m);
        expect(res.text).toMatch(/^research_duration_seconds_bucket\{le="\+Inf",outcome="completed"\} 3$/m);
        expect(res.text).toMatch(/^research_failed_total 0$/m);
        for (const name of METRIC_NAMES) expect(res.text).toMatch(new RegExp(`^# TYPE ${name} `, 'm'));

        // Scraped again, nothing is added twice; a publish with nothing new changes nothing.
        expect(await workerFleet.publish()).toBe(true);
        const again = await request(app.app).get('/metrics').expect(200);
        expect(again.text).toMatch(/^research_completed_total 3$/m);
        expect(again.text).toMatch(/^claims_extracted_total 7$/m);
      } finally {
        await app.close();
        await workerFleet.stop();
        await apiFleet?.stop();
        redis.disconnect();
        await clearRedisPrefix(prefix);
      }
    });

    it('serves its own metrics when the fleet cannot be read', async () => {
      const app = await buildTestApp('metrics-broken', {
        database: t.database,
        fleetMetrics: async () => {
          throw new Error('redis down');
        },
      });
      try {
        app.ctx.metrics.claimsExtracted(2);
        const res = await request(app.app).get('/metrics').expect(200);
        expect(res.text).toMatch(/^claims_extracted_total 2$/m);
      } finally {
        await app.close();
      }
    });
  });
});
