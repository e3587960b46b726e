import crypto from 'node:crypto';
import { sql, type KyselyPlugin, type QueryId } from 'kysely';
import { isDependencyUnavailable } from '@research/core';
import { connectRunLockPool, tryLockRun, type DatabaseHandle, type RunLockTiming } from '@research/database';
import { createMetrics, createSilentLogger } from '@research/observability';
import { createResearchRunner } from '@research/pipeline';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createWorkerEngine } from '../support/engine';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
import { fakeTimeoutsOnly, settlesBeforeNextTurn } from '../support/fake-timers';
import { waitFor } from '../support/wait';
import { startFakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { inProcessWorkerConfig, insertTestRun } from './worker-fixtures';

// The production timing (5 s heartbeat, 5 s bound, 20 s server-side) scaled down twenty-fold.
const TIMING: RunLockTiming = { heartbeatMs: 250, queryTimeoutMs: 250, idleSessionTimeoutMs: 1000 };

describe('run locks on a connection that goes silent (a network cut without a reset)', () => {
  let t: TestDatabase;
  let proxy: TcpProxy;
  const handles: DatabaseHandle[] = [];

  beforeAll(async () => {
    t = await createTestDatabase('runlock');
  });
  beforeEach(async () => {
    const target = new URL(t.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  });
  afterEach(async () => {
    jest.useRealTimers();
    // Pools first: ending a client whose socket the proxy holds waits for the proxy to let go.
    await proxy.close();
    await Promise.all(handles.splice(0).map((h) => h.close().catch(() => undefined)));
  });
  afterAll(async () => {
    await t?.drop();
  });

  function lockPool(via: 'proxy' | 'direct', timing: RunLockTiming = TIMING): DatabaseHandle {
    const url = new URL(t.url);
    if (via === 'proxy') {
      url.hostname = '127.0.0.1';
      url.port = String(proxy.port);
    }
    const handle = connectRunLockPool(url.toString(), { max: 3, applicationName: 'research-tests-locks', timing });
    handles.push(handle);
    return handle;
  }

  it('gives the lock up within a heartbeat and its bound, and the server frees it for another worker', async () => {
    const runId = crypto.randomUUID();
    const holder = lockPool('proxy');
    const other = lockPool('direct');
    // The holder's heartbeat and query bound run on Jest's clock, ticked below; sockets and Postgres stay real.
    fakeTimeoutsOnly();
    const lock = await tryLockRun(holder.db, runId);
    expect(lock).not.toBeNull();
    expect(await tryLockRun(other.db, runId)).toBeNull();

    proxy.blackhole();
    await jest.advanceTimersByTimeAsync(TIMING.heartbeatMs + TIMING.queryTimeoutMs - 1);
    expect(lock!.lost.aborted).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(lock!.lost.aborted).toBe(true);
    expect(isDependencyUnavailable(lock!.lost.reason)).toBe(true);
    expect(lock!.lost.reason).toMatchObject({ message: 'The database did not answer the run lock heartbeat in time' });

    // Released without asking the silent server: done before the event loop's next turn.
    expect(await settlesBeforeNextTurn(lock!.release())).toBe(true);
    jest.useRealTimers();

    // The server ends the silent session after idle_session_timeout, and its lock with it (TCP keepalive
    // would take minutes).
    const next = await waitFor('another worker to take the lock', () => tryLockRun(other.db, runId), 5000, 50);
    await next.release();
  });

  it('never hangs releasing a lock whose connection went silent since its last heartbeat', async () => {
    const holder = lockPool('proxy', { heartbeatMs: 60_000, queryTimeoutMs: 300, idleSessionTimeoutMs: 120_000 });
    const lock = await tryLockRun(holder.db, crypto.randomUUID());
    expect(lock).not.toBeNull();
    fakeTimeoutsOnly();
    proxy.blackhole();
    // The unlock goes out and is never answered: the release ends at the query bound, not before.
    const releasing = lock!.release();
    await jest.advanceTimersByTimeAsync(299);
    expect(await settlesBeforeNextTurn(releasing)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(await settlesBeforeNextTurn(releasing)).toBe(true);
  });

  it('answers a lock request on a silent connection with an outage within its bound', async () => {
    const holder = lockPool('proxy');
    // A pooled connection that was fine when it went idle, then went silent.
    const first = await tryLockRun(holder.db, crypto.randomUUID());
    await first!.release();
    fakeTimeoutsOnly();
    proxy.blackhole();
    const asking = tryLockRun(holder.db, crypto.randomUUID()).catch((e: unknown) => e);
    await jest.advanceTimersByTimeAsync(TIMING.queryTimeoutMs - 1);
    expect(await settlesBeforeNextTurn(asking)).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    const error = await asking;
    expect(isDependencyUnavailable(error)).toBe(true);
    expect(error).toMatchObject({ message: 'The database did not answer the run lock request in time' });
  });

  it("ends a worker's pick-up as soon as its lock is lost, even while a query of the run waits on the dead connection", async () => {
    const wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
    const worker = createWorkerEngine(inProcessWorkerConfig(wiki.apiUrl), { db: t.db });
    // The step's commit waits on the database as a query on a silently cut connection does, until `answer`.
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const checkpointWrites = new Set<QueryId>();
    let waiting = false;
    const plugin: KyselyPlugin = {
      transformQuery(args) {
        if (args.node.kind === 'UpdateQueryNode' && JSON.stringify(args.node).includes('"checkpoint_seq"'))
          checkpointWrites.add(args.queryId);
        return args.node;
      },
      async transformResult(args) {
        if (checkpointWrites.has(args.queryId)) {
          waiting = true;
          await answered;
        }
        return args.result;
      },
    };
    const locks = lockPool('direct');
    const runner = createResearchRunner({
      db: t.db.withPlugin(plugin),
      services: worker.services,
      metrics: createMetrics({ defaultMetrics: false }),
      logger: createSilentLogger(),
      lockDb: locks.db,
    });
    try {
      const run = await insertTestRun(t.db);
      const job = { id: run.id, attempt: 1, maxAttempts: 5, afterOutage: false, signal: new AbortController().signal };
      const pickup = runner({ research_id: run.id }, job);
      pickup.catch(() => undefined);
      await waitFor('the step commit to wait on the database', async () => waiting);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = 'research-tests-locks'`.execute(t.db);
      // The commit's query is still unanswered (answer() comes only in `finally`): the pick-up ends without it.
      const ended = await pickup.then(
        () => 'done',
        (error: unknown) => error,
      );
      expect(waiting).toBe(true);
      expect(isDependencyUnavailable(ended)).toBe(true);
      expect(ended).toMatchObject({ message: 'The run lock was lost with its database connection' });
    } finally {
      answer();
      await worker.close();
      await wiki.close();
    }
  });
});
