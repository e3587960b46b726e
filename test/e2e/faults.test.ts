import fs from 'node:fs';
import { sql } from 'kysely';
import { createApiKey } from './fleet-support';
import { API_MAIN, client } from './support';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { freePort, killAllProcesses, spawnNodeProcess, waitForLogLine, type NodeProcess } from '../support/processes';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { waitFor } from '../support/wait';
import { uniqueRedisPrefix } from '../support/redis';
import {
  WORKER_MAIN,
  privateRedis,
  recordCounts,
  runRow,
  workerEnv,
  type PrivateRedis,
} from '../worker/worker-fixtures';

type Counts = Awaited<ReturnType<typeof recordCounts>>;

const RUNNING = ['planning', 'searching', 'fetching', 'analyzing', 'comparing', 'synthesizing'];
const QUERY = { query: 'photosynthesis light energy plants', depth: 'quick', language: 'en' };

// Fault injection on the compose topology: the API and two workers as real processes, reaching Postgres
// through a loopback proxy the test can cut, and a redis-server of the test's own it can kill. The shared
// Postgres and Redis are never touched. Lock and stalled-check timings are the defaults.
describe('API and two workers under faults', () => {
  let t: TestDatabase;
  let wiki: FakeWiki;
  let proxy: TcpProxy;
  let redis: PrivateRedis;
  let prefix: string;
  let dataDir: string;
  let env: Record<string, string>;
  let api: NodeProcess;
  let workers: NodeProcess[];
  let call: ReturnType<typeof client>;
  /** What an undisturbed run stores: every run must end with the same records. */
  let clean: Counts;

  beforeAll(async () => {
    t = await createTestDatabase('faults');
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS, pageLatencyMs: 20 });
    const target = new URL(t.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    const proxied = new URL(t.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    redis = privateRedis(await freePort());
    await redis.start();
    prefix = uniqueRedisPrefix('faults');
    dataDir = `/tmp/${prefix}`;
    const base = workerEnv({
      databaseUrl: proxied.toString(),
      redisUrl: redis.url,
      prefix,
      wikiApiUrl: wiki.apiUrl,
      concurrency: 4,
    });
    // The defaults are what is under test (a killed worker's runs move on within 30 s).
    const { WORKER_LOCK_MS: _lock, WORKER_STALLED_INTERVAL_MS: _stalled, ...rest } = base;
    // One key creates every run of the three scenarios: its quota is not what is under test.
    env = { ...rest, RUNS_PER_KEY_PER_MINUTE: '0', RUNS_PER_KEY_PER_HOUR: '0' };
    const port = await freePort();
    api = spawnNodeProcess('api', API_MAIN, { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir });
    workers = [spawnNodeProcess('w1', WORKER_MAIN, env), spawnNodeProcess('w2', WORKER_MAIN, env)];
    await Promise.all([
      waitForLogLine(api, 'API listening', 30_000),
      ...workers.map((w) => waitForLogLine(w, 'worker started', 30_000)),
    ]);
    call = client(`http://127.0.0.1:${port}`, await createApiKey(t.db, 'faults-user'));
    const [id] = await createRuns(1);
    await waitForCompleted([id!], 30_000);
    clean = await recordCounts(t.db, id!);
    expect(clean.sources).toBeGreaterThan(0);
    expect(clean.claims).toBeGreaterThan(0);
  });

  afterAll(async () => {
    await killAllProcesses();
    await proxy?.close();
    await redis?.kill();
    await wiki?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    await t?.drop();
  });

  async function createRuns(n: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < n; i++) {
      const r = await call<{ research_id: string }>('POST', '/v1/research', QUERY);
      expect(r.status).toBe(200);
      ids.push(r.body.research_id);
    }
    return ids;
  }

  async function states(ids: string[]): Promise<string[]> {
    return Promise.all(ids.map(async (id) => (await runRow(t.db, id)).state));
  }

  async function waitForCompleted(ids: string[], timeoutMs: number): Promise<void> {
    await waitFor(
      `${ids.length} runs to complete`,
      async () => (await states(ids)).every((s) => s === 'completed'),
      timeoutMs,
      100,
    );
  }

  /**
   * Every run ended with the records of an undisturbed run: nothing lost, nothing twice. A run that differs
   * shows, in the diff, the pages its fetch rejected and the queries that failed, with their reasons: what
   * tells a fault the run rode out from one that cost it sources.
   */
  async function expectNothingLost(ids: string[]): Promise<void> {
    for (const id of ids) {
      const setbacks = await t.db
        .selectFrom('run_events')
        .select(['type', 'data'])
        .where('run_id', '=', id)
        .where((eb) =>
          eb.or([
            eb.and([eb('type', '=', 'source'), eb(sql`data->>'outcome'`, '=', 'rejected')]),
            eb.and([eb('type', '=', 'query'), eb(sql`data->>'failed'`, '=', 'true')]),
          ]),
        )
        .orderBy('seq')
        .execute();
      expect({ run: id, counts: await recordCounts(t.db, id), setbacks }).toEqual({
        run: id,
        counts: clean,
        setbacks: expect.any(Array),
      });
    }
  }

  function expectWorkersAlive(): void {
    for (const w of workers) {
      expect({ worker: w.name, alive: w.alive() }).toEqual({ worker: w.name, alive: true });
      expect(w.stderr.join('')).not.toMatch(/Unhandled|Connection terminated/i);
    }
  }

  it('rides out a 10 s Postgres outage: no process exits, the API answers 503 with Retry-After, every run completes', async () => {
    wiki.pageLatencyMs = 1000;
    const ids = await createRuns(8);
    await waitFor(
      'all 8 runs in flight',
      async () => (await states(ids)).every((s) => RUNNING.includes(s) && s !== 'planning'),
      30_000,
      50,
    );

    proxy.cut();
    const cutAt = Date.now();
    const answers: Array<{ route: string; status: number; retryAfter: string | null; detail: unknown }> = [];
    while (Date.now() - cutAt < 10_000) {
      const results = await Promise.all([
        call<{ detail?: unknown }>('GET', '/v1/research'),
        call<{ detail?: unknown }>('GET', `/v1/research/${ids[0]}/status`),
        call<{ detail?: unknown }>('POST', '/v1/research', QUERY),
      ]);
      results.forEach((r, i) =>
        answers.push({
          route: ['list', 'status', 'create'][i]!,
          status: r.status,
          retryAfter: r.headers.get('retry-after'),
          detail: r.body.detail,
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    proxy.restore();
    wiki.pageLatencyMs = 20;

    expect(answers.filter((a) => a.status >= 500 && a.status !== 503)).toEqual([]);
    const unavailable = answers.filter((a) => a.status === 503);
    expect(unavailable.length).toBeGreaterThan(answers.length / 2);
    for (const a of unavailable) {
      expect(a.retryAfter).toMatch(/^\d+$/);
      expect(typeof a.detail).toBe('string');
    }
    expectWorkersAlive();
    expect(api.alive()).toBe(true);

    await waitForCompleted(ids, 60_000);
    expectWorkersAlive();
    await expectNothingLost(ids);
    // The outage reached the runs in flight: they lost their lock or their queries and were resumed.
    const resumed = workers.flatMap((w) => w.lines).filter((l) => l.message === 'research run resumed');
    expect(resumed.length).toBeGreaterThan(0);
    // ...and went on with the attempt the outage interrupted: it spent none of their attempts.
    const attempts = await Promise.all(ids.map(async (id) => (await runRow(t.db, id)).attempts));
    expect(attempts).toEqual(ids.map(() => 1));
    process.stdout.write(
      `postgres outage: ${answers.length} answers during 10 s, ${unavailable.length} were 503; ` +
        `8 runs completed ${Math.round((Date.now() - cutAt - 10_000) / 1000)} s after it ended\n`,
    );
  }, 120_000);

  it('completes every run when Redis is killed and comes back empty, accepting runs meanwhile', async () => {
    wiki.pageLatencyMs = 500;
    const ids = await createRuns(6);
    await waitFor('the runs in flight', async () => (await states(ids)).every((s) => RUNNING.includes(s)), 30_000, 50);

    await redis.kill();
    // Runs posted while Redis is down are committed (200) and wait for the reconciler.
    const during = await createRuns(2);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await redis.start();
    wiki.pageLatencyMs = 20;

    const all = [...ids, ...during];
    const restarted = Date.now();
    await waitForCompleted(all, 60_000);
    expectWorkersAlive();
    await expectNothingLost(all);
    process.stdout.write(
      `redis wipe: ${all.length} runs completed ${Math.round((Date.now() - restarted) / 1000)} s after it restarted\n`,
    );
  }, 120_000);

  it("has a killed worker's runs completed by the other worker within 30 s of the SIGKILL", async () => {
    wiki.pageLatencyMs = 1500;
    const ids = await createRuns(6);
    const [victim, survivor] = workers as [NodeProcess, NodeProcess];
    await waitFor(
      'the victim to hold a run in its fetch step',
      async () => {
        const mine = ids.filter((id) => victim.holds(id));
        return (await states(mine)).includes('fetching');
      },
      30_000,
      50,
    );
    victim.child.kill('SIGKILL');
    const killedAt = Date.now();
    expect((await victim.exited).signal).toBe('SIGKILL');
    const held = ids.filter((id) => victim.holds(id));
    const heldStates = await states(held);
    const unfinished = held.filter((_, i) => heldStates[i] !== 'completed');
    wiki.pageLatencyMs = 20;

    expect(unfinished.length).toBeGreaterThan(0);
    await waitForCompleted(unfinished, 30_000);
    const tookMs = Date.now() - killedAt;
    expect(tookMs).toBeLessThan(30_000);
    // Completed by the survivor: resumed from a checkpoint, or started afresh when the victim held it before one.
    // It logs the completion just after committing it, so its line may follow the state by a moment.
    const completedBySurvivor = (id: string) =>
      survivor.lines.some((l) => l.research_id === id && l.message === 'research run completed');
    await waitFor('the survivor to log the completions', async () => unfinished.every(completedBySurvivor), 5_000, 50);
    await waitForCompleted(ids, 30_000);
    expect(survivor.alive()).toBe(true);
    await expectNothingLost(ids);
    process.stdout.write(`worker kill: its ${unfinished.length} runs completed ${tookMs} ms after the SIGKILL\n`);
  }, 120_000);
});
