import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createApiKey, setUserAdminByName } from './fleet-support';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { freePort, killAllProcesses, spawnNodeProcess, waitForLogLine, type NodeProcess } from '../support/processes';
import { clearRedisPrefix, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';
import { workerEnv } from '../worker/worker-fixtures';
import { API_MAIN, client } from './support';

const HEALTHCHECK = require.resolve('../../apps/worker/dist/healthcheck.js');

// The compose topology on one machine: `start:api` plus two `start:worker` processes sharing Postgres and Redis.
describe('API and two workers as separate processes', () => {
  let t: TestDatabase;
  let wiki: FakeWiki;
  let prefix: string;
  let api: NodeProcess;
  let workers: NodeProcess[];
  let call: ReturnType<typeof client>;
  let heartbeat: string;

  beforeAll(async () => {
    t = await createTestDatabase('fleet');
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS, pageLatencyMs: 20 });
    prefix = uniqueRedisPrefix('fleet');
    const env = workerEnv({ databaseUrl: t.url, redisUrl: TEST_REDIS_URL, prefix, wikiApiUrl: wiki.apiUrl });
    const port = await freePort();
    api = spawnNodeProcess('api', API_MAIN, {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: `/tmp/${prefix}`,
    });
    await waitForLogLine(api, 'API listening', 30_000);
    heartbeat = `/tmp/${prefix}-w1.heartbeat`;
    workers = [
      spawnNodeProcess('w1', require.resolve('../../apps/worker/dist/main.js'), {
        ...env,
        WORKER_HEARTBEAT_FILE: heartbeat,
      }),
      spawnNodeProcess('w2', require.resolve('../../apps/worker/dist/main.js'), env),
    ];
    await Promise.all(workers.map((w) => waitForLogLine(w, 'worker started', 30_000)));
    const key = await createApiKey(t.db, 'fleet-user');
    await setUserAdminByName(t.db, 'fleet-user');
    call = client(`http://127.0.0.1:${port}`, key);
  });
  afterAll(async () => {
    await killAllProcesses();
    await wiki.close();
    await clearRedisPrefix(prefix);
    fs.rmSync(`/tmp/${prefix}`, { recursive: true, force: true });
    fs.rmSync(heartbeat, { force: true });
    await t.drop();
  });

  it('finishes every run posted to the API and shows the whole fleet on one /metrics scrape', async () => {
    const requestIds = ['fleet-req-1', 'fleet-req-2', 'fleet-req-3', 'fleet-req-4'];
    const ids: string[] = [];
    for (const requestId of requestIds) {
      const r = await call<{ research_id: string }>(
        'POST',
        '/v1/research',
        { query: 'photosynthesis light energy plants', depth: 'quick', language: 'en' },
        { 'X-Request-ID': requestId },
      );
      expect(r.status).toBe(200);
      expect(r.headers.get('x-request-id')).toBe(requestId);
      ids.push(r.body.research_id);
    }
    for (const id of ids) {
      await waitFor(
        `run ${id} to complete`,
        async () => (await call<{ state: string }>('GET', `/v1/research/${id}/status`)).body.state === 'completed',
        45_000,
        200,
      );
    }
    // Every run was taken by a worker, and each job's log lines carry the request id of the POST that created it.
    const byWorker = workers.map((w) => ids.filter((id) => w.holds(id)).length);
    expect(byWorker.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(ids.length);
    ids.forEach((id, i) => {
      const lines = workers.flatMap((w) => w.lines).filter((l) => l.research_id === id);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.every((l) => l.request_id === requestIds[i])).toBe(true);
    });
    const metrics = await waitFor(
      'the fleet counters on /metrics',
      async () => {
        const text = (await call<string>('GET', '/metrics')).body;
        return /^research_completed_total 4$/m.test(text) ? text : undefined;
      },
      10_000,
      200,
    );
    expect(metrics).toMatch(/^active_research_runs 0$/m);
    const fetched = Number(/^sources_fetched_total (\d+)$/m.exec(metrics)?.[1]);
    const sources = await Promise.all(
      ids.map(async (id) => (await call<{ total: number }>('GET', `/v1/research/${id}/sources`)).body.total),
    );
    expect(fetched).toBe(sources.reduce((a, b) => a + b, 0));
  });

  it('keeps a worker healthy for the container healthcheck while it runs', () => {
    const check = (file: string) =>
      spawnSync(process.execPath, [HEALTHCHECK], { env: { PATH: process.env.PATH, WORKER_HEARTBEAT_FILE: file } })
        .status;
    expect(check(heartbeat)).toBe(0);
    expect(check(`${heartbeat}.missing`)).toBe(1);
    // A heartbeat a minute old (a copy: the live worker would rewrite its own file between the two calls).
    const stale = `${heartbeat}.stale`;
    fs.copyFileSync(heartbeat, stale);
    fs.utimesSync(stale, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(check(stale)).toBe(1);
  });

  it('stops the API and the workers with exit 0 on SIGTERM', async () => {
    for (const p of [api, ...workers]) p.child.kill('SIGTERM');
    const exits = await Promise.all([api, ...workers].map((p) => p.exited));
    expect(exits).toEqual(exits.map(() => ({ code: 0, signal: null })));
  });
});
