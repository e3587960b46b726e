import { Redis } from 'ioredis';
import { createSilentLogger } from '@research/observability';
import { createBullResearchQueue, startReconciler, type ResearchQueue } from '@research/queue';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { waitFor } from '../support/wait';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import {
  freePort,
  insertTestRun,
  killAllWorkers,
  privateRedis,
  recordCounts,
  runRow,
  spawnWorker,
  waitForState,
  waitForWorkerReady,
  workerEnv,
  type PrivateRedis,
  type WorkerProcess,
} from './worker-fixtures';

// The reconciler trusts Postgres, not the queue. A Redis server of this file's own can be killed and
// restarted empty (no persistence) while two real worker processes work against it.
describe('reconciler', () => {
  let t: TestDatabase;
  let wiki: FakeWiki;
  let redis: PrivateRedis;
  let producer: ResearchQueue;
  let cleanCounts: Awaited<ReturnType<typeof recordCounts>>;
  const workers: WorkerProcess[] = [];
  const prefix = 'research-reconcile';

  beforeAll(async () => {
    t = await createTestDatabase('reconciler');
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
    redis = privateRedis(await freePort());
    await redis.start();
    producer = createBullResearchQueue({ redisUrl: redis.url, prefix, logger: createSilentLogger() });
    const env = workerEnv({ databaseUrl: t.url, redisUrl: redis.url, prefix, wikiApiUrl: wiki.apiUrl });
    workers.push(spawnWorker('worker-a', env), spawnWorker('worker-b', env));
    await Promise.all(workers.map((w) => waitForWorkerReady(w)));
    // What an undisturbed run stores, done by the same workers: the yardstick for the disturbed ones.
    const run = await insertTestRun(t.db);
    await producer.enqueue({ research_id: run.id, request_id: run.request_id! });
    await waitForState(t.db, run.id, ['completed'], 30_000);
    cleanCounts = await recordCounts(t.db, run.id);
    expect(cleanCounts.reports).toBe(1);
  });

  afterAll(async () => {
    await killAllWorkers();
    await producer?.close();
    await redis?.kill();
    await wiki?.close();
    await t?.drop();
  });

  afterEach(() => {
    wiki.pageLatencyMs = 0;
  });

  it('enqueues a run that was committed in Postgres but never enqueued, and a worker finishes it', async () => {
    const run = await insertTestRun(t.db);
    const done = await waitForState(t.db, run.id, ['completed'], 20_000);
    expect(done.enqueued_at).toBeInstanceOf(Date);
    expect(await recordCounts(t.db, run.id)).toEqual(cleanCounts);
  });

  it('leaves runs waiting in created while Redis is down, and finishes them once it is back', async () => {
    await redis.kill();
    const failedPasses = () =>
      workers.map(
        (w) => w.lines.filter((l) => l.message === 'reconcile pass failed; retrying on the next tick').length,
      );
    const before = failedPasses();
    const run = await insertTestRun(t.db);
    // What POST /v1/research meets: the enqueue fails fast, the committed run waits.
    await expect(producer.enqueue({ research_id: run.id })).rejects.toThrow();
    const reconciler = startReconciler({
      db: t.db,
      queue: producer,
      intervalMs: 60_000,
      logger: createSilentLogger(),
      immediate: false,
    });
    await expect(reconciler.runOnce()).resolves.toMatchObject({ ok: false, enqueued: 0 });
    await reconciler.stop();
    // Each worker's own reconciler has had a whole pass over the waiting run (its second failed pass since the
    // run was written began after the first ended), and the run is still waiting.
    await waitFor(
      "two failed passes of each worker's reconciler",
      async () => failedPasses().every((n, i) => n >= before[i]! + 2),
      20_000,
      50,
    );
    expect((await runRow(t.db, run.id)).state).toBe('created');

    await redis.start();
    const done = await waitForState(t.db, run.id, ['completed'], 30_000);
    expect(done.attempts).toBe(1);
    expect(await recordCounts(t.db, run.id)).toEqual(cleanCounts);
  });

  it('finishes every in-flight run when Redis restarts empty mid-run, without duplicating records', async () => {
    wiki.pageLatencyMs = 1500;
    // Six runs for four worker slots: four are being worked on, two wait in Redis (and are lost with it).
    const runs = await Promise.all([1, 2, 3, 4, 5, 6].map(() => insertTestRun(t.db)));
    for (const run of runs) await producer.enqueue({ research_id: run.id, request_id: run.request_id! });
    await waitFor(
      'four runs in flight and two waiting',
      async () => {
        const states = await Promise.all(runs.map(async (r) => (await runRow(t.db, r.id)).state));
        return (
          states.filter((s) => s === 'fetching').length === 4 && states.filter((s) => s === 'created').length === 2
        );
      },
      20_000,
      50,
    );

    const jobKeys = runs.map((r) => `${prefix}:research:${r.id}`);
    // A key no worker writes tells that the restarted server is empty (the runs' jobs may be enqueued again by
    // the workers' reconcilers, which tick every second, before the test can look).
    const marker = `${prefix}:restart-marker`;
    const before = new Redis(redis.url);
    expect(await before.exists(...jobKeys)).toBe(runs.length);
    await before.set(marker, '1');
    before.disconnect();
    await redis.kill();
    await redis.start();
    const raw = new Redis(redis.url);
    const surviving = await raw.exists(marker);
    raw.disconnect();
    expect(surviving).toBe(0);
    wiki.pageLatencyMs = 50;

    for (const run of runs) {
      const done = await waitForState(t.db, run.id, ['completed'], 40_000);
      expect(done.attempts).toBe(1);
      expect(await recordCounts(t.db, run.id)).toEqual(cleanCounts);
    }
    // Re-enqueued jobs that met a run a live worker still held were delayed, not run a second time.
    const pickups = workers
      .flatMap((w) => w.lines)
      .filter((l) => runs.some((r) => r.id === l.research_id) && l.message === 'research run started');
    expect(pickups).toHaveLength(runs.length);
  });
});
