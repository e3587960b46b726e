import { createMetrics, createSilentLogger } from '@research/observability';
import { createResearchRunner } from '@research/pipeline';
import {
  createInProcessQueue,
  startReconciler,
  type ResearchJobContext,
  type ResearchJobHandler,
} from '@research/queue';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createWorkerEngine, type WorkerEngine } from '../support/engine';
import { waitFor } from '../support/wait';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { inProcessWorkerConfig, insertTestRun, runRow } from './worker-fixtures';

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const logger = createSilentLogger();

describe('in-process research queue', () => {
  it('runs at most `concurrency` jobs at once and one job per research id', async () => {
    let active = 0;
    let peak = 0;
    const seen: string[] = [];
    const handler: ResearchJobHandler = async (payload) => {
      seen.push(payload.research_id);
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 50));
      active--;
      return 'done';
    };
    const queue = createInProcessQueue({ handler, concurrency: 2, logger });
    for (let i = 1; i <= 5; i++) await queue.enqueue({ research_id: ID(i) });
    await queue.enqueue({ research_id: ID(1) });
    expect(await queue.liveJobIds([ID(1), ID(5), ID(9)])).toEqual(new Set([ID(1), ID(5)]));
    await queue.onIdle();
    expect(peak).toBe(2);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5].map(ID));
    // Finished jobs are no longer live, so the same run can be enqueued again.
    expect(await queue.liveJobIds([ID(1)])).toEqual(new Set());
    await queue.close();
  });

  it('retries a job that threw, with its attempt number, up to the last attempt', async () => {
    const attempts: ResearchJobContext[] = [];
    const handler: ResearchJobHandler = async (_payload, job) => {
      attempts.push(job);
      if (job.attempt < 3) throw new Error('database unreachable');
      return 'done';
    };
    const queue = createInProcessQueue({ handler, concurrency: 1, logger, retryDelayMs: 10 });
    await queue.enqueue({ research_id: ID(1) });
    await queue.onIdle();
    expect(attempts.map((a) => [a.attempt, a.maxAttempts])).toEqual([
      [1, 5],
      [2, 5],
      [3, 5],
    ]);
    await queue.close();
  });

  it('retries a job that met an outage without spending an attempt, and tells the handler it follows one', async () => {
    const pickups: Array<[number, boolean]> = [];
    const handler: ResearchJobHandler = async (_payload, job) => {
      pickups.push([job.attempt, job.afterOutage]);
      if (pickups.length <= 2) throw new Error('Connection terminated unexpectedly');
      if (pickups.length === 3) throw new Error('the engine broke');
      return 'done';
    };
    const queue = createInProcessQueue({ handler, concurrency: 1, logger, retryDelayMs: 10 });
    await queue.enqueue({ research_id: ID(1) });
    await queue.onIdle();
    expect(pickups).toEqual([
      [1, false],
      [1, true],
      [1, true],
      [2, false],
    ]);
    await queue.close();
  });

  it('hands running jobs back on close: their signal aborts and close waits for them', async () => {
    let aborted = false;
    const handler: ResearchJobHandler = (_payload, job) =>
      new Promise((resolve) => {
        job.signal.addEventListener('abort', () => {
          aborted = true;
          setTimeout(() => resolve('handed_back'), 20);
        });
      });
    const queue = createInProcessQueue({ handler, concurrency: 1, logger });
    await queue.enqueue({ research_id: ID(1) });
    await queue.enqueue({ research_id: ID(2) });
    await queue.close();
    expect(aborted).toBe(true);
    expect(await queue.liveJobIds([ID(1), ID(2)])).toEqual(new Set());
    await expect(queue.enqueue({ research_id: ID(3) })).rejects.toThrow('shutting down');
    expect(await queue.ping()).toBe(false);
  });

  describe("with the reconciler and a worker's engine over Postgres", () => {
    let t: TestDatabase;
    let wiki: FakeWiki;
    let worker: WorkerEngine;
    beforeAll(async () => {
      t = await createTestDatabase('inprocess');
      wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
      worker = createWorkerEngine(inProcessWorkerConfig(wiki.apiUrl), { db: t.db });
    });
    afterAll(async () => {
      await worker?.close();
      await wiki?.close();
      await t?.drop();
    });

    it('finds a run that was committed but never enqueued, and finishes it', async () => {
      const run = await insertTestRun(t.db);
      const runner = createResearchRunner({
        db: t.db,
        services: worker.services,
        metrics: createMetrics({ defaultMetrics: false }),
        logger,
      });
      const queue = createInProcessQueue({ handler: runner, concurrency: 2, logger });
      const reconciler = startReconciler({ db: t.db, queue, intervalMs: 200, logger });
      try {
        await waitFor('the run to complete', async () => (await runRow(t.db, run.id)).state === 'completed', 20_000);
        expect((await runRow(t.db, run.id)).enqueued_at).toBeInstanceOf(Date);
        // Nothing is left to enqueue once every run has ended. runOnce() joins a pass under way, and the timer's
        // may have begun before the end (and, seeing the job gone, enqueued it again): let that one finish, then
        // judge a pass begun after the end.
        await reconciler.runOnce();
        await expect(reconciler.runOnce()).resolves.toMatchObject({ ok: true, unfinished: 0, enqueued: 0 });
      } finally {
        await reconciler.stop();
        await queue.close();
      }
    });
  });
});
