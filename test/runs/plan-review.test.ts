import { findReport, findRunById, listRunEvents } from '@research/database';
import { createMetrics, createSilentLogger } from '@research/observability';
import { createResearchRunner, expireOverdueReviews, reviewExpired } from '@research/pipeline';
import {
  createBullResearchQueue,
  createInProcessQueue,
  requeueIfApproved,
  startReconciler,
  startResearchWorker,
  type ResearchJobHandler,
  type ResearchJobContext,
  type ResearchQueue,
} from '@research/queue';
import { approveRunPlan, createResearchRun, editRunPlan, type RequestScope } from '@research/runs';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { createWorkerEngine, type WorkerEngine } from '../support/engine';
import { buildTestApp, type TestApp } from '../http/support';
import { clearRedisPrefix, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';
import { inProcessWorkerConfig } from '../worker/worker-fixtures';

// Plan review without HTTP: the runner's pause, the reconciler's pass and the expiry sweep, each called as the
// worker calls it, over a real Postgres database; time is the sweep's injected clock.

const TIMEOUT_SECONDS = 3600;

let t: TestApp;
let wiki: FakeWiki;
let engine: WorkerEngine;
let runner: ReturnType<typeof createResearchRunner>;
let scope: RequestScope;

function job(): ResearchJobContext {
  return { id: 'job', attempt: 1, maxAttempts: 5, afterOutage: false, signal: new AbortController().signal };
}

/** A queue that records what is enqueued, or refuses it as a queue that is down. */
function recordingQueue(down = false): ResearchQueue & { enqueued: string[] } {
  const enqueued: string[] = [];
  return {
    enqueued,
    async enqueue(payload) {
      if (down) throw new Error('Redis is not connected (reconnecting)');
      enqueued.push(payload.research_id);
    },
    ping: async () => !down,
    liveJobIds: async () => new Set<string>(),
    close: async () => undefined,
  };
}

/** A run created with review_plan, taken by the runner up to its pause. */
async function pausedRun(): Promise<string> {
  const { id } = await createResearchRun(t.ctx, scope, {
    query: 'photosynthesis light energy plants',
    language: 'en',
    depth: 'quick',
    extra_queries: null,
    review_plan: true,
  });
  expect(await runner({ research_id: id }, job())).toBe('paused');
  expect((await findRunById(t.db, id))?.state).toBe('awaiting_review');
  return id;
}

beforeAll(async () => {
  t = await buildTestApp('plan-review');
  wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
  engine = createWorkerEngine(inProcessWorkerConfig(wiki.apiUrl));
  runner = createResearchRunner({
    db: t.db,
    services: engine.services,
    metrics: createMetrics({ defaultMetrics: false }),
    logger: createSilentLogger(),
  });
  scope = {
    actor: { userId: t.owner.id, username: t.owner.username, isAdmin: false, keyId: t.owner.keyId },
    requestId: 'req-review',
    logger: createSilentLogger(),
  };
});
afterAll(async () => {
  await engine.close();
  await wiki.close();
  await t.close();
});

describe('a run awaiting review', () => {
  it('is not taken up again by a job: the runner leaves it and the reconciler enqueues nothing', async () => {
    const id = await pausedRun();
    const searches = wiki.requests.search;
    expect(await runner({ research_id: id }, job())).toBe('done');
    expect(wiki.requests.search).toBe(searches);
    const run = await findRunById(t.db, id);
    expect(run).toMatchObject({ state: 'awaiting_review', checkpoint: { done: ['plan'] } });

    const queue = recordingQueue();
    const reconciler = startReconciler({
      db: t.db,
      queue,
      intervalMs: 60_000,
      logger: createSilentLogger(),
      immediate: false,
    });
    const pass = await reconciler.runOnce();
    await reconciler.stop();
    expect(pass.ok).toBe(true);
    expect(queue.enqueued).not.toContain(id);
  });

  it('approved while the queue is down, is enqueued by the next reconciler pass and then completes', async () => {
    const id = await pausedRun();
    const failed: string[] = [];
    const down = { ...t.ctx, queue: recordingQueue(true), onEnqueueFailed: (runId: string) => failed.push(runId) };
    expect(await approveRunPlan(down, scope, id)).toEqual({ research_id: id, state: 'searching' });
    expect(failed).toEqual([id]);
    expect((await findRunById(t.db, id))?.state).toBe('searching');

    const queue = recordingQueue();
    const reconciler = startReconciler({
      db: t.db,
      queue,
      intervalMs: 60_000,
      logger: createSilentLogger(),
      immediate: false,
    });
    await reconciler.runOnce();
    await reconciler.stop();
    expect(queue.enqueued).toContain(id);
    expect(await runner({ research_id: id }, job())).toBe('done');
    expect((await findRunById(t.db, id))?.state).toBe('completed');
  });

  it('is managed by an administrator as by its owner', async () => {
    const id = await pausedRun();
    const admin: RequestScope = {
      actor: { userId: t.admin.id, username: t.admin.username, isAdmin: true, keyId: t.admin.keyId },
      requestId: 'req-admin',
      logger: createSilentLogger(),
    };
    const edited = await editRunPlan(t.ctx, admin, id, { sub_questions: ['What does chlorophyll absorb?'] });
    expect(edited.plan).toMatchObject({ sub_questions: ['What does chlorophyll absorb?'] });
    expect(await approveRunPlan({ ...t.ctx, queue: recordingQueue() }, admin, id)).toEqual({
      research_id: id,
      state: 'searching',
    });
  });

  it('does not count the time its plan waited against the duration budget', async () => {
    const id = await pausedRun();
    const before = (await findRunById(t.db, id))!;
    // The plan has waited an hour.
    await t.db
      .updateTable('research_runs')
      .set({ review_requested_at: new Date(before.review_requested_at!.getTime() - 3_600_000) })
      .where('id', '=', id)
      .execute();
    await approveRunPlan({ ...t.ctx, queue: recordingQueue() }, scope, id);
    const after = (await findRunById(t.db, id))!;
    const moved = after.started_at!.getTime() - before.started_at!.getTime();
    expect(moved).toBeGreaterThanOrEqual(3_600_000);
    expect(moved).toBeLessThan(3_600_000 + 600_000);
  });

  it('expires once it has waited longer than the timeout: cancelled, with its stop report and the reason', async () => {
    const id = await pausedRun();
    const sweep = (aheadMs: number) =>
      expireOverdueReviews({
        db: t.db,
        services: engine.services,
        logger: createSilentLogger(),
        metrics: createMetrics({ defaultMetrics: false }),
        timeoutSeconds: TIMEOUT_SECONDS,
        now: () => Date.now() + aheadMs,
      });
    // Just within the timeout: nothing happens.
    expect(await sweep(TIMEOUT_SECONDS * 1000 - 60_000)).toBe(0);
    expect((await findRunById(t.db, id))?.state).toBe('awaiting_review');

    expect(await sweep(TIMEOUT_SECONDS * 1000 + 1000)).toBeGreaterThanOrEqual(1);
    const run = await findRunById(t.db, id);
    expect(run).toMatchObject({ state: 'cancelled', metadata: { error: reviewExpired(TIMEOUT_SECONDS) } });
    expect(run?.finished_at).not.toBeNull();
    expect(reviewExpired(TIMEOUT_SECONDS)).toBe(
      'The plan waited for review longer than 3600 s (PLAN_REVIEW_TIMEOUT_SECONDS); the run was cancelled.',
    );
    const report = await findReport(t.db, id);
    expect(JSON.stringify(report?.report)).toMatch(/stopped before it finished/);
    const events = await listRunEvents(t.db, id);
    expect(events.map((e) => e.type).slice(-5)).toEqual(['review', 'stopped', 'report', 'state', 'end']);
    expect(events.at(-5)?.data).toEqual({ action: 'expired', timeout_seconds: TIMEOUT_SECONDS });
    expect(events.at(-1)?.data).toEqual({ state: 'cancelled' });
    // Approval comes too late.
    await expect(approveRunPlan(t.ctx, scope, id)).rejects.toMatchObject({ code: 'conflict' });
    // A second sweep finds nothing more to do.
    expect(await sweep(TIMEOUT_SECONDS * 1000 + 1000)).toBe(0);
  });
});

// An approval that lands after the pause committed but while the job that paused is still live: the
// approval's enqueue finds that job and adds nothing. The queue asks requeueIfApproved once the job is gone.
describe('an approval while the pausing job is still live', () => {
  /** The runner, approving the run (through `queue`) after its pause, before the job ends. */
  const approvingRunner =
    (queue: () => ResearchQueue): ResearchJobHandler =>
    async (payload, context) => {
      const outcome = await runner(payload, context);
      if (outcome === 'paused') {
        const live = await queue().liveJobIds!([payload.research_id]);
        expect(live.has(payload.research_id)).toBe(true);
        await approveRunPlan({ ...t.ctx, queue: queue() }, scope, payload.research_id);
      }
      return outcome;
    };

  const created = async () =>
    (
      await createResearchRun({ ...t.ctx, queue: recordingQueue() }, scope, {
        query: 'photosynthesis light energy plants',
        language: 'en',
        depth: 'quick',
        extra_queries: null,
        review_plan: true,
      })
    ).id;

  it('goes on with the in-process queue', async () => {
    const id = await created();
    const logger = createSilentLogger();
    const queue = createInProcessQueue({
      handler: approvingRunner(() => queue),
      concurrency: 1,
      logger,
      onPaused: (runId) => void requeueIfApproved({ db: t.db, queue, logger }, runId),
    });
    try {
      await queue.enqueue({ research_id: id });
      await waitFor('the run to complete', async () => (await findRunById(t.db, id))?.state === 'completed', 30_000);
    } finally {
      await queue.close();
    }
  });

  it('goes on with BullMQ', async () => {
    const id = await created();
    const logger = createSilentLogger();
    const prefix = uniqueRedisPrefix('review-window');
    const producer = createBullResearchQueue({ redisUrl: TEST_REDIS_URL, prefix, logger });
    const worker = startResearchWorker({
      redisUrl: TEST_REDIS_URL,
      prefix,
      concurrency: 1,
      lockDurationMs: 2000,
      stalledIntervalMs: 1000,
      handler: approvingRunner(() => producer),
      logger,
      onPaused: (runId) => void requeueIfApproved({ db: t.db, queue: producer, logger }, runId),
    });
    try {
      await producer.enqueue({ research_id: id });
      await waitFor('the run to complete', async () => (await findRunById(t.db, id))?.state === 'completed', 30_000);
    } finally {
      await worker.close();
      await producer.close();
      await clearRedisPrefix(prefix);
    }
  });
});
