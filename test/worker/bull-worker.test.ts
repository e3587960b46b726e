import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { sql, type KyselyPlugin } from 'kysely';
import { Writable } from 'node:stream';
import winston from 'winston';
import { connectPostgres, tryLockRun, type Database } from '@research/database';
import { createMetrics, createSilentLogger, type Logger } from '@research/observability';
import { createResearchRunner } from '@research/pipeline';
import {
  RESEARCH_JOB_NAME,
  RESEARCH_QUEUE_NAME,
  createBullResearchQueue,
  startResearchWorker,
  type ResearchJobHandler,
  type ResearchWorker,
} from '@research/queue';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createWorkerEngine, type WorkerEngine } from '../support/engine';
import { TEST_REDIS_URL, clearRedisPrefix, uniqueRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { inProcessWorkerConfig, insertTestRun, recordCounts, runRow, waitForState } from './worker-fixtures';

/** A JSON logger like the service's, writing its lines to memory. */
function capturingLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean))
        lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return {
    logger: winston.createLogger({
      level: 'debug',
      format: winston.format.json(),
      transports: [new winston.transports.Stream({ stream })],
    }),
    lines,
  };
}

describe('BullMQ research worker', () => {
  let t: TestDatabase;
  let wiki: FakeWiki;
  let prefix: string;
  let redis: Redis;
  let rawQueue: Queue;
  let worker: WorkerEngine;
  const workers: ResearchWorker[] = [];
  const lockPools: Database[] = [];

  beforeAll(async () => {
    t = await createTestDatabase('bullworker');
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
    worker = createWorkerEngine(inProcessWorkerConfig(wiki.apiUrl), { db: t.db });
    prefix = uniqueRedisPrefix('bullworker');
    redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
    rawQueue = new Queue(RESEARCH_QUEUE_NAME, { connection: redis, prefix });
  });
  afterEach(async () => {
    wiki.pageLatencyMs = 0;
    await Promise.all(workers.splice(0).map((w) => w.close()));
  });
  afterAll(async () => {
    await rawQueue?.close();
    redis?.disconnect();
    await clearRedisPrefix(prefix);
    await Promise.all(lockPools.map((db) => db.destroy()));
    await worker?.close();
    await wiki?.close();
    await t?.drop();
  });

  function startWorker(
    handler: ResearchJobHandler,
    logger: Logger = createSilentLogger(),
    extra: { busyRetryDelayMs?: number } = {},
  ) {
    const worker = startResearchWorker({
      redisUrl: TEST_REDIS_URL,
      prefix,
      concurrency: 2,
      lockDurationMs: 2000,
      stalledIntervalMs: 1000,
      handler,
      logger,
      ...extra,
    });
    workers.push(worker);
    return worker;
  }

  function runner(options: { db?: Database; lockDb?: Database; logger?: Logger } = {}) {
    return createResearchRunner({
      db: options.db ?? t.db,
      services: worker.services,
      metrics: createMetrics({ defaultMetrics: false }),
      logger: options.logger ?? createSilentLogger(),
      pollIntervalMs: 100,
      ...(options.lockDb ? { lockDb: options.lockDb } : {}),
    });
  }

  it('validates the payload again and fails an invalid job at once, without retries', async () => {
    let called = false;
    startWorker(async () => {
      called = true;
      return 'done';
    });
    await rawQueue.add(RESEARCH_JOB_NAME, { research_id: 'not-a-uuid' }, { jobId: 'invalid-payload', attempts: 3 });
    const job = await waitFor('the invalid job to fail', async () => {
      const found = await rawQueue.getJob('invalid-payload');
      // The job read must postdate its failure (a Job object is a snapshot).
      return found?.failedReason && (await found.isFailed()) ? found : undefined;
    });
    expect(job.failedReason).toBe('Invalid research job payload');
    expect(job.attemptsMade).toBe(1);
    expect(called).toBe(false);
  });

  it('runs a job to completion with research_id, job_id and request_id on every log line of the job', async () => {
    const { logger, lines } = capturingLogger();
    startWorker(runner({ logger }), logger);
    const producer = createBullResearchQueue({ redisUrl: TEST_REDIS_URL, prefix, logger: createSilentLogger() });
    const run = await insertTestRun(t.db, { requestId: 'req-logs-1' });
    await producer.enqueue({ research_id: run.id, request_id: 'req-logs-1' });
    await producer.enqueue({ research_id: run.id, request_id: 'req-logs-1' }); // a duplicate add is ignored
    await waitForState(t.db, run.id, ['completed']);
    await producer.close();
    await waitFor('the job to be removed', async () => (await rawQueue.getJobState(run.id)) === 'unknown');

    const messages = lines.map((l) => l.message);
    expect(messages).toEqual(
      expect.arrayContaining([
        'research job started',
        'research run started',
        'step committed',
        'research run completed',
        'research job finished',
      ]),
    );
    expect(messages.filter((m) => m === 'research run started')).toHaveLength(1);
    for (const line of lines) {
      expect(line).toMatchObject({ research_id: run.id, job_id: run.id, request_id: 'req-logs-1' });
    }
  });

  it('hands the running job back on close, and another worker resumes the run from its checkpoint', async () => {
    wiki.pageLatencyMs = 2000;
    const first = startWorker(runner());
    const producer = createBullResearchQueue({ redisUrl: TEST_REDIS_URL, prefix, logger: createSilentLogger() });
    const run = await insertTestRun(t.db);
    await producer.enqueue({ research_id: run.id });
    await waitForState(t.db, run.id, ['fetching']);
    const closing = Date.now();
    await first.close();
    expect(Date.now() - closing).toBeLessThan(3000);
    expect(await rawQueue.getJobState(run.id)).toBe('waiting');
    const handedBack = await runRow(t.db, run.id);
    expect(handedBack).toMatchObject({
      state: 'fetching',
      attempts: 0,
      checkpoint: expect.objectContaining({ done: ['plan', 'search'] }),
    });

    wiki.pageLatencyMs = 0;
    startWorker(runner());
    const done = await waitForState(t.db, run.id, ['completed']);
    expect(done.attempts).toBe(1);
    const counts = await recordCounts(t.db, run.id);
    expect(counts.sources).toBe(counts.distinctSourceUrls);
    expect(counts.reports).toBe(1);
    await producer.close();
  });

  it('delays a job whose run a live worker already holds, and runs it once the holder lets go', async () => {
    const lockDb = createTestLockPool();
    const run = await insertTestRun(t.db);
    const held = await tryLockRun(lockDb, run.id);
    const producer = createBullResearchQueue({ redisUrl: TEST_REDIS_URL, prefix, logger: createSilentLogger() });
    try {
      expect(held).not.toBeNull();
      expect(await tryLockRun(lockDb, run.id)).toBeNull();
      startWorker(runner({ lockDb }), createSilentLogger(), { busyRetryDelayMs: 300 });
      await producer.enqueue({ research_id: run.id });
      await waitFor('the job to be delayed', async () => (await rawQueue.getJobState(run.id)) === 'delayed');
      expect((await runRow(t.db, run.id)).state).toBe('created');
      expect(await producer.liveJobIds!([run.id])).toEqual(new Set([run.id]));
      await held!.release();
      await waitForState(t.db, run.id, ['completed']);
    } finally {
      await held?.release();
      await producer.close();
    }
  });

  it('hands the run back when its run lock connection dies, and resumes it with a new lock', async () => {
    const lockDb = createTestLockPool();
    const { logger, lines } = capturingLogger();
    wiki.pageLatencyMs = 1500;
    startWorker(runner({ lockDb, logger }), logger);
    const run = await insertTestRun(t.db);
    await rawQueue.add(RESEARCH_JOB_NAME, { research_id: run.id }, { jobId: run.id, attempts: 2 });
    await waitForState(t.db, run.id, ['fetching']);
    // What a database restart does to the session holding the advisory lock.
    const { rows } = await sql<{ terminated: boolean }>`
      select pg_terminate_backend(pid) as terminated from pg_stat_activity
      where datname = current_database() and application_name = 'research-tests-locks'`.execute(t.db);
    expect(rows.some((r) => r.terminated)).toBe(true);
    await waitFor('the run to be handed back', async () =>
      lines.some((l) => l.message === 'run lock lost with its database connection; handing the research run back'),
    );
    wiki.pageLatencyMs = 0;
    const done = await waitForState(t.db, run.id, ['completed']);
    expect(lines.filter((l) => l.message === 'research run resumed' && l.research_id === run.id)).toHaveLength(1);
    expect(done.attempts).toBe(1);
  });

  /** A database that throws `error()` on every update whose SQL `matches` (while `failing()` says so). */
  function refusingUpdates(matches: string, error: () => Error, failing: () => boolean = () => true): Database {
    const plugin: KyselyPlugin = {
      transformQuery(args) {
        if (args.node.kind === 'UpdateQueryNode' && failing() && JSON.stringify(args.node).includes(matches)) {
          throw error();
        }
        return args.node;
      },
      async transformResult(args) {
        return args.result;
      },
    };
    return t.db.withPlugin(plugin);
  }

  /** A database that throws `error()` on every checkpoint write (the one statement that matters). */
  function refusingCheckpoints(error: () => Error, failing?: () => boolean): Database {
    return refusingUpdates('"checkpoint_seq"', error, failing);
  }

  it('ends the run as failed with the error on the last attempt of a job whose database writes keep failing', async () => {
    const attempts: number[] = [];
    const handler = runner({
      db: refusingCheckpoints(() => new Error('could not extend file: No space left on device')),
    });
    startWorker(async (payload, job) => {
      attempts.push(job.attempt);
      return handler(payload, job);
    });
    const run = await insertTestRun(t.db);
    await rawQueue.add(
      RESEARCH_JOB_NAME,
      { research_id: run.id },
      { jobId: run.id, attempts: 2, backoff: { type: 'fixed', delay: 100 } },
    );
    const failed = await waitForState(t.db, run.id, ['failed']);
    expect(attempts).toEqual([1, 2]);
    expect(failed.metadata).toEqual({ error: 'could not extend file: No space left on device', failed_step: 'plan' });
  });

  it('completes a run that meets outages on more pick-ups than it has attempts left, counting one attempt', async () => {
    const pickups: Array<{ attempt: number; afterOutage: boolean }> = [];
    const handler = runner({
      db: refusingCheckpoints(
        () => new Error('Connection terminated unexpectedly'),
        () => pickups.length <= 3,
      ),
    });
    startWorker(async (payload, job) => {
      pickups.push({ attempt: job.attempt, afterOutage: job.afterOutage });
      return handler(payload, job);
    });
    // Two attempts left: each outage used to cost one, so the third pick-up ended it as abandoned.
    const run = await insertTestRun(t.db, { attempts: 3 });
    await rawQueue.add(
      RESEARCH_JOB_NAME,
      { research_id: run.id },
      { jobId: run.id, attempts: 2, backoff: { type: 'fixed', delay: 100 } },
    );
    const done = await waitForState(t.db, run.id, ['completed', 'failed'], 45_000);
    expect(done.state).toBe('completed');
    expect(done.attempts).toBe(4);
    expect(pickups).toEqual([
      { attempt: 1, afterOutage: false },
      { attempt: 1, afterOutage: true },
      { attempt: 1, afterOutage: true },
      { attempt: 1, afterOutage: true },
    ]);
  });

  it('ends a run that meets an outage on every pick-up when its duration budget is spent, not by attempts', async () => {
    const attempts: number[] = [];
    const handler = runner({ db: refusingCheckpoints(() => new Error('Connection terminated unexpectedly')) });
    startWorker(async (payload, job) => {
      attempts.push(job.attempt);
      return handler(payload, job);
    });
    const run = await insertTestRun(t.db, { budget: { max_research_duration_seconds: 3 } });
    await rawQueue.add(
      RESEARCH_JOB_NAME,
      { research_id: run.id },
      { jobId: run.id, attempts: 2, backoff: { type: 'fixed', delay: 100 } },
    );
    // An outage is no reason to fail a run, however many times the job meets it: only the run's own
    // duration budget ends one whose database never comes back for it.
    const failed = await waitForState(t.db, run.id, ['failed'], 30_000);
    expect(attempts.length).toBeGreaterThan(2);
    expect(attempts.every((a) => a === 1)).toBe(true);
    expect(failed.attempts).toBe(1);
    expect(failed.metadata).toEqual({ error: 'Research duration budget of 3 s exceeded', failed_step: 'plan' });
  });

  it('keeps the attempts of a run whose run lock connection drops again and again while the database refuses to give one back', async () => {
    const lockDb = createTestLockPool();
    const { logger, lines } = capturingLogger();
    const refusing = refusingUpdates('greatest(attempts - 1', () => new Error('Connection terminated unexpectedly'));
    wiki.pageLatencyMs = 1500;
    startWorker(runner({ db: refusing, lockDb, logger }), logger);
    const run = await insertTestRun(t.db, { attempts: 3 });
    await rawQueue.add(RESEARCH_JOB_NAME, { research_id: run.id }, { jobId: run.id, attempts: 2 });
    await waitForState(t.db, run.id, ['fetching']);
    const count = (message: string) => lines.filter((l) => l.message === message).length;
    for (let drop = 1; drop <= 2; drop++) {
      await waitFor('the run to be worked on', async () => count('research run resumed') >= drop - 1);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = 'research-tests-locks'`.execute(t.db);
      await waitFor(
        'the lost lock to stop the run',
        async () => count('run lock lost with its database connection; handing the research run back') >= drop,
      );
    }
    wiki.pageLatencyMs = 0;
    const done = await waitForState(t.db, run.id, ['completed', 'failed']);
    expect(done.state).toBe('completed');
    expect(done.attempts).toBe(4);
  });

  it('backs a job off longer at each outage in a row, also when another worker picks it up', async () => {
    const pickups: number[] = [];
    const outage: ResearchJobHandler = async () => {
      pickups.push(Date.now());
      if (pickups.length <= 3) throw new Error('Connection terminated unexpectedly');
      return 'done';
    };
    const first = startWorker(outage);
    const run = await insertTestRun(t.db);
    await rawQueue.add(RESEARCH_JOB_NAME, { research_id: run.id }, { jobId: run.id, attempts: 2 });
    await waitFor(
      'the first outage',
      async () => pickups.length === 1 && (await rawQueue.getJobState(run.id)) === 'delayed',
    );
    await first.close();
    startWorker(outage);
    await waitFor('the job to end', async () => pickups.length === 4, 20_000, 20);
    // Outage delays start at 0.5 s and double (with +-20 % jitter): the second worker goes on from the
    // first one's count, so its waits are 1 s and 2 s, not 0.5 s and 1 s again.
    const gaps = [pickups[2]! - pickups[1]!, pickups[3]! - pickups[2]!];
    expect(gaps[0]).toBeGreaterThanOrEqual(800);
    expect(gaps[0]).toBeLessThan(1800);
    expect(gaps[1]).toBeGreaterThanOrEqual(1600);
    expect(gaps[1]).toBeLessThan(3000);
  });

  function createTestLockPool(): Database {
    const handle = connectPostgres(t.url, { max: 4, applicationName: 'research-tests-locks' });
    lockPools.push(handle.db);
    return handle.db;
  }
});
