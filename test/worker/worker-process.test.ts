import { createSilentLogger } from '@research/observability';
import { createBullResearchQueue, type ResearchQueue } from '@research/queue';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { TEST_REDIS_URL, clearRedisPrefix, uniqueRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import {
  installStateLog,
  insertTestRun,
  killAllWorkers,
  recordCounts,
  spawnWorker,
  statesOf,
  waitForState,
  waitForWorkerReady,
  workerEnv,
  type WorkerProcess,
} from './worker-fixtures';

// Real worker processes (apps/worker/dist/main.js, built by `npm test`) against real Postgres and Redis.
describe('worker processes (npm run start:worker)', () => {
  let t: TestDatabase;
  let wiki: FakeWiki;
  let prefix: string;
  let producer: ResearchQueue;
  let env: Record<string, string>;
  let clean: { counts: Awaited<ReturnType<typeof recordCounts>>; states: string[] };
  const pool: WorkerProcess[] = [];

  beforeAll(async () => {
    t = await createTestDatabase('workerproc');
    await installStateLog(t.db);
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
    prefix = uniqueRedisPrefix('workerproc');
    env = workerEnv({ databaseUrl: t.url, redisUrl: TEST_REDIS_URL, prefix, wikiApiUrl: wiki.apiUrl });
    producer = createBullResearchQueue({ redisUrl: TEST_REDIS_URL, prefix, logger: createSilentLogger() });
    pool.push(spawnWorker('worker-a', env), spawnWorker('worker-b', env));
    await Promise.all(pool.map((w) => waitForWorkerReady(w)));
    // What an undisturbed run over the same fake web stores, done by the same workers: the yardstick for
    // resumed runs.
    const run = await insertTestRun(t.db, { depth: 'normal' });
    await producer.enqueue({ research_id: run.id, request_id: run.request_id! });
    await waitForState(t.db, run.id, ['completed'], 30_000);
    clean = { counts: await recordCounts(t.db, run.id), states: await statesOf(t.db, run.id) };
    expect(clean.states.at(-1)).toBe('completed');
  });

  afterAll(async () => {
    await killAllWorkers();
    await producer?.close();
    if (prefix) await clearRedisPrefix(prefix);
    await wiki?.close();
    await t?.drop();
  });

  async function startRunMidway(): Promise<{ runId: string; holder: WorkerProcess; others: WorkerProcess[] }> {
    wiki.pageLatencyMs = 1500;
    const run = await insertTestRun(t.db, { depth: 'normal' });
    await producer.enqueue({ research_id: run.id, request_id: run.request_id! });
    // Planning and searching are committed; the run is inside the slow fetch step.
    await waitForState(t.db, run.id, ['fetching'], 20_000);
    const live = pool.filter((w) => w.alive());
    const holder = await waitFor('a worker to hold the run', async () => live.find((w) => w.holds(run.id)), 10_000, 20);
    return { runId: run.id, holder, others: live.filter((w) => w !== holder) };
  }

  it('finishes the run on another worker when the one holding it is killed with SIGKILL, losing and repeating nothing', async () => {
    const { runId, holder, others } = await startRunMidway();
    holder.child.kill('SIGKILL');
    expect((await holder.exited).signal).toBe('SIGKILL');
    wiki.pageLatencyMs = 50;

    const done = await waitForState(t.db, runId, ['completed'], 40_000);
    expect(
      others.some((w) => w.lines.some((l) => l.research_id === runId && l.message === 'research run resumed')),
    ).toBe(true);
    expect(await recordCounts(t.db, runId)).toEqual(clean.counts);
    expect(await statesOf(t.db, runId)).toEqual(clean.states);
    expect(done.plan).not.toBeNull();
    // The killed pick-up counts as an attempt; the resumed one is the second.
    expect(done.attempts).toBe(2);
  });

  it('stops gracefully on SIGTERM, exiting 0 well within 30 s, and the run is finished by another worker', async () => {
    const replacement = spawnWorker('worker-c', env);
    pool.push(replacement);
    await waitForWorkerReady(replacement);
    const { runId, holder, others } = await startRunMidway();
    const signalled = Date.now();
    holder.child.kill('SIGTERM');
    const exit = await holder.exited;
    const stopMs = Date.now() - signalled;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(stopMs).toBeLessThan(30_000);
    expect(
      holder.lines.some(
        (l) => l.research_id === runId && l.message === 'handing the research run back for another worker',
      ),
    ).toBe(true);
    expect(holder.lines.some((l) => l.message === 'worker stopped')).toBe(true);
    wiki.pageLatencyMs = 50;

    const done = await waitForState(t.db, runId, ['completed'], 30_000);
    expect(others.some((w) => w.holds(runId))).toBe(true);
    expect(await recordCounts(t.db, runId)).toEqual(clean.counts);
    // A hand-back is no failed attempt.
    expect(done.attempts).toBe(1);
    process.stdout.write(`SIGTERM stop took ${stopMs} ms\n`);
  });
});
