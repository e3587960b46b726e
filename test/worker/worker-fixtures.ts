import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { DEPTH_BUDGETS, loadConfig, type AppConfig, type Budget, type Depth } from '@research/core';
import { insertRun, type Database, type RunRow } from '@research/database';
import { waitFor } from '../support/wait';
import {
  freePort,
  killAllProcesses,
  spawnNodeProcess,
  trackChild,
  waitForLogLine,
  type NodeProcess,
} from '../support/processes';

export { freePort };

export const PHOTO_QUERY = 'How does photosynthesis convert light energy in plants?';

export type WorkerProcess = NodeProcess;

/** Starts `node apps/worker/dist/main.js` with only the given environment (plus PATH). */
export function spawnWorker(name: string, env: Record<string, string>): WorkerProcess {
  return spawnNodeProcess(name, WORKER_MAIN, env);
}

export function waitForWorkerReady(worker: WorkerProcess, timeoutMs = 20_000): Promise<void> {
  return waitForLogLine(worker, 'worker started', timeoutMs);
}

export const killAllWorkers = killAllProcesses;

const ROOT = path.resolve(__dirname, '..', '..');
export const WORKER_MAIN = path.join(ROOT, 'apps', 'worker', 'dist', 'main.js');

/** The AppConfig a test process would load from this environment (quiet logs unless asked). */
export function testConfig(env: Record<string, string>): AppConfig {
  return loadConfig({ LOG_LEVEL: 'warn', ...env });
}

/** Inserts a run exactly as POST /v1/research commits it (state created, budget of its depth). */
export async function insertTestRun(
  db: Database,
  options: {
    query?: string;
    depth?: Depth;
    language?: string;
    budget?: Partial<Budget>;
    requestId?: string;
    attempts?: number;
    extraQueries?: string[];
  } = {},
): Promise<RunRow> {
  const depth = options.depth ?? 'quick';
  return insertRun(db, {
    id: crypto.randomUUID(),
    query: options.query ?? PHOTO_QUERY,
    language: options.language ?? 'en',
    depth,
    budget: JSON.stringify({ ...DEPTH_BUDGETS[depth], ...options.budget }),
    state: 'created',
    owner_user_id: null,
    extra_queries: options.extraQueries ? JSON.stringify(options.extraQueries) : null,
    request_id: options.requestId ?? `req-${crypto.randomBytes(4).toString('hex')}`,
    ...(options.attempts !== undefined ? { attempts: options.attempts } : {}),
  });
}

/**
 * Records every state a run passes through, from inside Postgres: a trigger appends each change to
 * run_state_log, so no state is missed however fast the pipeline moves.
 */
export async function installStateLog(db: Database): Promise<void> {
  await sql`create table if not exists run_state_log (id bigserial primary key, run_id uuid not null, state text not null)`.execute(
    db,
  );
  await sql`
    create or replace function log_run_state() returns trigger language plpgsql as $$
    begin
      if tg_op = 'INSERT' or new.state is distinct from old.state then
        insert into run_state_log (run_id, state) values (new.id, new.state);
      end if;
      return new;
    end $$`.execute(db);
  await sql`drop trigger if exists research_runs_state_log on research_runs`.execute(db);
  await sql`create trigger research_runs_state_log after insert or update on research_runs for each row execute function log_run_state()`.execute(
    db,
  );
}

export async function statesOf(db: Database, runId: string): Promise<string[]> {
  const { rows } = await sql<{
    state: string;
  }>`select state from run_state_log where run_id = ${runId} order by id`.execute(db);
  return rows.map((r) => r.state);
}

export const ROUND_STATES = ['searching', 'fetching', 'analyzing', 'comparing', 'synthesizing'];

export async function runRow(db: Database, runId: string): Promise<RunRow> {
  return db.selectFrom('research_runs').selectAll().where('id', '=', runId).executeTakeFirstOrThrow();
}

export async function waitForState(db: Database, runId: string, states: string[], timeoutMs = 30_000): Promise<RunRow> {
  return waitFor(
    `run ${runId} in ${states.join('/')}`,
    async () => {
      const run = await runRow(db, runId);
      return states.includes(run.state) ? run : undefined;
    },
    timeoutMs,
    50,
  );
}

/** Every record count of a run, for comparing a resumed run with a clean one. */
export async function recordCounts(db: Database, runId: string) {
  const count = async (table: 'search_results' | 'sources' | 'claims' | 'evidence_scores' | 'reports') => {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('run_id', '=', runId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  };
  const distinctUrls = await db
    .selectFrom('sources')
    .select((eb) => eb.fn.count<number>('url').distinct().as('n'))
    .where('run_id', '=', runId)
    .executeTakeFirstOrThrow();
  return {
    searchResults: await count('search_results'),
    sources: await count('sources'),
    distinctSourceUrls: Number(distinctUrls.n),
    claims: await count('claims'),
    evidence: await count('evidence_scores'),
    reports: await count('reports'),
  };
}

export interface PrivateRedis {
  readonly url: string;
  readonly port: number;
  /** Starts (or starts again, empty) the server on the same port. */
  start(): Promise<void>;
  /** SIGKILLs the server: everything in it is gone. */
  kill(): Promise<void>;
}

/** A redis-server of the test's own, without persistence, so a restart comes back empty. */
export function privateRedis(port: number): PrivateRedis {
  let child: ChildProcess | undefined;
  const ping = () =>
    new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
      socket.once('error', () => resolve(false));
    });
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      child = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: 'ignore' },
      );
      trackChild(child);
      await waitFor(`redis-server on ${port}`, ping, 10_000, 50);
    },
    async kill() {
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGKILL');
      });
    },
  };
}

/** How a worker reaches the test web, spawned (workerEnv) or in this process (inProcessWorkerConfig). */
const FAKE_WEB_ENV: Readonly<Record<string, string>> = {
  CRAWLER_TIMEOUT_MS: '10000',
  // The test web (fake wiki and pages) lives on loopback, which the crawler refuses by default.
  CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
  // These tests time runs against a slow fake web: pages served from the page cache would skip it.
  CRAWLER_CACHE_TTL_SECONDS: '0',
};

/** Environment of a spawned worker: short locks, fast reconciling and metric publishing. */
export function workerEnv(params: {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  wikiApiUrl: string;
  concurrency?: number;
}): Record<string, string> {
  return {
    DATABASE_URL: params.databaseUrl,
    REDIS_URL: params.redisUrl,
    REDIS_PREFIX: params.prefix,
    WIKIPEDIA_API_URL: params.wikiApiUrl,
    WORKER_CONCURRENCY: String(params.concurrency ?? 2),
    WORKER_LOCK_MS: '2000',
    WORKER_STALLED_INTERVAL_MS: '1000',
    RECONCILE_INTERVAL_MS: '1000',
    METRICS_PUBLISH_INTERVAL_MS: '300',
    SHUTDOWN_TIMEOUT_MS: '20000',
    ...FAKE_WEB_ENV,
  };
}

/**
 * The AppConfig of a worker run in the test process (test/support/engine.ts builds its engine): the
 * fake wiki as Wikipedia and the same web settings as a spawned worker's.
 */
export function inProcessWorkerConfig(wikiApiUrl: string, env: Record<string, string> = {}): AppConfig {
  return testConfig({ WIKIPEDIA_API_URL: wikiApiUrl, ...FAKE_WEB_ENV, ...env });
}
