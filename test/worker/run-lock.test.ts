import crypto from 'node:crypto';
import { sql, type KyselyPlugin, type QueryId } from 'kysely';
import { isDependencyUnavailable } from '@research/core';
import { connectRunLockPool, tryLockRun, type DatabaseHandle, type RunLockTiming } from '@research/database';
import { createMetrics, createSilentLogger } from '@research/observability';
import { createResearchRunner } from '@research/pipeline';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createWorkerEngine } from '../support/engine';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy';
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
    const lock = await tryLockRun(holder.db, runId);
    expect(lock).not.toBeNull();
    expect(await tryLockRun(other.db, runId)).toBeNull();

    proxy.blackhole();
    const cut = Date.now();
    await waitFor('the holder to notice its silent session', async () => lock!.lost.aborted, 5000, 20);
    const noticed = Date.now() - cut;
    expect(noticed).toBeLessThan(TIMING.heartbeatMs + TIMING.queryTimeoutMs + 300);
    expect(isDependencyUnavailable(lock!.lost.reason)).toBe(true);

    const releasing = Date.now();
    await lock!.release();
    expect(Date.now() - releasing).toBeLessThan(100);

    // The server ends the silent session after idle_session_timeout, and its lock with it.
    const next = await waitFor('another worker to take the lock', () => tryLockRun(other.db, runId), 5000, 50);
    const freed = Date.now() - cut;
    expect(freed).toBeGreaterThan(noticed);
    expect(freed).toBeLessThan(TIMING.idleSessionTimeoutMs + TIMING.heartbeatMs + 1000);
    await next.release();
  });

  it('never hangs releasing a lock whose connection went silent since its last heartbeat', async () => {
    const holder = lockPool('proxy', { heartbeatMs: 60_000, queryTimeoutMs: 300, idleSessionTimeoutMs: 120_000 });
    const lock = await tryLockRun(holder.db, crypto.randomUUID());
    expect(lock).not.toBeNull();
    proxy.blackhole();
    const releasing = Date.now();
    await lock!.release();
    const took = Date.now() - releasing;
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(1000);
  });

  it('answers a lock request on a silent connection with an outage within its bound', async () => {
    const holder = lockPool('proxy');
    // A pooled connection that was fine when it went idle, then went silent.
    const first = await tryLockRun(holder.db, crypto.randomUUID());
    await first!.release();
    proxy.blackhole();
    const asking = Date.now();
    const error = await tryLockRun(holder.db, crypto.randomUUID()).catch((e: unknown) => e);
    expect(Date.now() - asking).toBeLessThan(1000);
    expect(isDependencyUnavailable(error)).toBe(true);
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
      const lost = Date.now();
      const ended = await Promise.race([
        pickup.then(
          () => 'done',
          (error: unknown) => error,
        ),
        new Promise((resolve) => setTimeout(() => resolve('still waiting'), 3000)),
      ]);
      expect(isDependencyUnavailable(ended)).toBe(true);
      expect(ended).toMatchObject({ message: 'The run lock was lost with its database connection' });
      expect(Date.now() - lost).toBeLessThan(1000);
    } finally {
      answer();
      await worker.close();
      await wiki.close();
    }
  });
});
