// The real service as a user deploys it: the API process and one worker process (apps/api/dist/main.js,
// apps/worker/dist/main.js) on a throwaway Postgres database and a Redis prefix of their own, with an API key
// made by the key-administration CLI. Runs go in over HTTP and their results come back over HTTP; only what
// the API does not serve is read from the database the evaluation owns: each source's stored text (to check
// that evidence spans occur in it), the run's worker time and its LLM usage.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from '../../test/support/processes';
import { REDIS_URL, benchRedisPrefix, createBenchDatabase, stopChild } from '../bench/services';

const ROOT = path.resolve(__dirname, '..', '..');
const API_MAIN = path.join(ROOT, 'apps/api/dist/main.js');
const WORKER_MAIN = path.join(ROOT, 'apps/worker/dist/main.js');
const CLI_MAIN = path.join(ROOT, 'apps/api/dist/cli.js');
const POLL_MS = 300;

export interface ReportFinding {
  text: string;
  confidence: number;
  source_ids: string[];
}

export interface ReportDisagreement {
  claim?: string;
  kind?: string;
  positions?: Array<{ source?: string; source_id?: string; view?: string }>;
}

export interface Report {
  summary: string;
  findings: ReportFinding[];
  disagreements: ReportDisagreement[];
}

export interface RunSource {
  id: string;
  url: string;
  title: string | null;
}

export interface RunClaim {
  id: string;
  source_id: string;
  claim_text: string;
  evidence_span: string;
  /** Where the pipeline reads the claim (round, then its place in the run), as stored: what `--replay` orders by. */
  round?: number;
  position?: number;
  stance?: string | null;
}

export interface RunEvidence {
  claim_id: string;
  contradiction_level: number;
}

/** Everything the evaluation reads about one finished (or given up) run. */
export interface RunOutcome {
  id: string;
  state: string;
  error: string | null;
  report: Report;
  sources: RunSource[];
  claims: RunClaim[];
  evidence: RunEvidence[];
  /** Each source's text as the run stored it, by source id. */
  storedText: Map<string, string>;
  /** Worker time: from the run's start to its end (queue waits excluded). */
  seconds: number;
  /** The run's usage counters (llm_requests, llm_tokens_input, llm_tokens_output, search_queries, …). */
  usage: Record<string, number>;
  /** The run's search hits in stored order (query, URL, provider rank, round), for `--save`. */
  searchResults: Array<{ round: number; query: string; url: string; rank: number }>;
  /** The run's stored plan, for `--replay`. */
  plan: unknown;
}

export interface ServiceStack {
  readonly origin: string;
  /** Creates a run of `query` over HTTP, waits until it ends (or `timeoutMs` passes) and reads it back. */
  research(query: string, options: { depth: string; language: string; timeoutMs: number }): Promise<RunOutcome>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once GET /health answers 200; rejects when the process exits first or after `timeoutMs`. */
async function waitForHealth(origin: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the API process exited with ${child.exitCode}`);
    const ok = await fetch(`${origin}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await sleep(200);
  }
  throw new Error(`the API did not answer /health within ${timeoutMs / 1000} s`);
}

/** Sends SIGTERM (the graceful stop a deployment uses) and waits; SIGKILL after `graceMs`. */
async function terminate(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => void stopChild(child), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the API, creates a key with the CLI, then starts a worker. `env` holds the settings of both processes
 * beyond database, Redis and port (search provider, crawler, LLM, WORKER_CONCURRENCY); logs go to `logFile`.
 */
export async function startServiceStack(options: {
  env: Record<string, string>;
  logFile: string;
}): Promise<ServiceStack> {
  const database = await createBenchDatabase('eval');
  const port = await freePort();
  // Nothing of the processes' own state lands in the working directory.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'research-eval-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...options.env,
    DATA_DIR: dataDir,
    DATABASE_URL: database.url,
    REDIS_URL,
    REDIS_PREFIX: benchRedisPrefix(),
    HOST: '127.0.0.1',
    PORT: String(port),
  };
  const log = fs.openSync(options.logFile, 'a');
  const start = (main: string) => spawn(process.execPath, [main], { env, stdio: ['ignore', log, log] });
  const children: ChildProcess[] = [];
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // An idle client the server drops must not end the evaluation: the next query takes a new connection.
  pool.on('error', (error) => process.stderr.write(`eval: database connection lost (${error.message})\n`));
  const origin = `http://127.0.0.1:${port}`;

  async function stop(): Promise<void> {
    // The worker first: it hands back what it holds; then the API.
    for (const child of [...children].reverse()) await terminate(child, 30_000);
    fs.closeSync(log);
    await pool.end();
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }

  try {
    // The key first (the CLI applies the migrations): an API that finds a user makes no administrator key file.
    const created = await promisify(execFile)(process.execPath, [CLI_MAIN, 'keys', 'create', 'eval', '--json'], {
      env,
    });
    const apiKey = (JSON.parse(created.stdout.trim()) as { key: string }).key;
    const api = start(API_MAIN);
    children.push(api);
    await waitForHealth(origin, api, 60_000);
    children.push(start(WORKER_MAIN));
    const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
    const get = async <T>(route: string): Promise<T> => {
      const response = await fetch(`${origin}${route}`, { headers });
      if (!response.ok) throw new Error(`GET ${route}: HTTP ${response.status}`);
      return (await response.json()) as T;
    };

    async function research(query: string, run: { depth: string; language: string; timeoutMs: number }) {
      const response = await fetch(`${origin}/v1/research`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ query, depth: run.depth, language: run.language }),
      });
      if (!response.ok) throw new Error(`POST /v1/research: HTTP ${response.status} ${await response.text()}`);
      const { research_id: id } = (await response.json()) as { research_id: string };
      const deadline = Date.now() + run.timeoutMs;
      let status = await get<{ state: string; error: string | null; is_running: boolean }>(`/v1/research/${id}/status`);
      while (status.is_running && Date.now() < deadline) {
        const gone = children.find((child) => child.exitCode !== null || child.signalCode !== null);
        if (gone)
          throw new Error(`a service process exited (${gone.exitCode ?? gone.signalCode}); see ${options.logFile}`);
        await sleep(POLL_MS);
        status = await get(`/v1/research/${id}/status`);
      }
      const [report, sources, claims, evidence, stored, timing, hits, places] = await Promise.all([
        get<Report>(`/v1/research/${id}/report`),
        get<{ sources: RunSource[] }>(`/v1/research/${id}/sources`),
        get<{ claims: RunClaim[] }>(`/v1/research/${id}/claims`),
        get<{ evidence: RunEvidence[] }>(`/v1/research/${id}/evidence`),
        pool.query<{ id: string; content: string }>('select id, content from sources where run_id = $1', [id]),
        pool.query<{ seconds: number | null; usage: Record<string, number>; plan: unknown }>(
          'select extract(epoch from finished_at - started_at)::float8 as seconds, usage, plan from research_runs where id = $1',
          [id],
        ),
        pool.query<{ round: number; query: string; url: string; rank: number }>(
          'select round, query, url, rank from search_results where run_id = $1 order by position',
          [id],
        ),
        pool.query<{ id: string; round: number; position: number; stance: string | null }>(
          'select id, round, position, stance from claims where run_id = $1',
          [id],
        ),
      ]);
      const placeOf = new Map(places.rows.map((r) => [r.id, r]));
      const row = timing.rows[0];
      return {
        id,
        state: status.is_running ? `${status.state} (gave up waiting)` : status.state,
        error: status.error,
        report,
        sources: sources.sources,
        claims: claims.claims.map((c) => {
          const place = placeOf.get(c.id);
          return place ? { ...c, round: place.round, position: place.position, stance: place.stance } : c;
        }),
        evidence: evidence.evidence,
        storedText: new Map(stored.rows.map((r) => [r.id, r.content])),
        seconds: row?.seconds ?? 0,
        usage: row?.usage ?? {},
        searchResults: hits.rows,
        plan: row?.plan ?? null,
      };
    }

    return { origin, research, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
