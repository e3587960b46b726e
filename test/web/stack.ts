import fs from 'node:fs';
import path from 'node:path';
import { createApiKey, setUserAdminByName } from '../e2e/fleet-support';
import { API_MAIN, ROOT, client } from '../e2e/support';
import { corpusPages, plantedContradictionPages } from '../engine/engine-support';
import { startFakeWeb, type FakeWeb } from '../fakes/fake-web';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { freePort, killAllProcesses, spawnNodeProcess, waitForLogLine, type NodeProcess } from '../support/processes';
import { clearRedisPrefix, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';
import { WORKER_MAIN, workerEnv } from '../worker/worker-fixtures';

/** The built page the API serves (`npm test` builds it first). */
export const WEB_DIST = path.join(ROOT, 'apps', 'web', 'dist');

/**
 * What the browser tests run against: an API process serving the built page and a worker, searching the
 * fake web (SearxNG's shape) whose pages stand on several loopback hosts: the photosynthesis encyclopedia,
 * one page a host, and three pages on carbon dioxide of which one contradicts the others.
 */
export interface WebStack {
  /** `http://127.0.0.1:<port>`: the page at `/`, the API beside it. */
  readonly base: string;
  readonly db: TestDatabase;
  /** Search engine and web pages; its page latency decides how long a run takes. */
  readonly web: FakeWeb;
  readonly api: NodeProcess;
  readonly worker: NodeProcess;
  /** A user's key, and an administrator's. */
  readonly userKey: string;
  readonly adminKey: string;
  /** The JSON client of the user (the tests arrange and check through the API with it). */
  readonly call: ReturnType<typeof client>;
  close(): Promise<void>;
}

/**
 * Starts the stack of one test file, with a database and Redis prefix of its own. `pageLatencyMs` of the
 * fake web paces the runs: a quick run over it takes a few of these. With `localCorpusDir` the runs search
 * that folder instead (the `local` provider: sources named `local:<path>`), and the fake web stands idle.
 */
export async function startWebStack(
  label: string,
  options: { pageLatencyMs?: number; localCorpusDir?: string; env?: Record<string, string> } = {},
): Promise<WebStack> {
  if (!fs.existsSync(path.join(WEB_DIST, 'index.html'))) {
    throw new Error(`${WEB_DIST} holds no built page: run \`npm run build\` first (\`npm test\` does)`);
  }
  const db = await createTestDatabase(label);
  const web = await startFakeWeb({
    pages: [...corpusPages(PHOTOSYNTHESIS_CORPUS), ...plantedContradictionPages()],
    pageLatencyMs: options.pageLatencyMs ?? 0,
  });
  const prefix = uniqueRedisPrefix(label);
  const dataDir = `/tmp/${prefix}`;
  const env = {
    // No Wikipedia: a closed loopback port stands for it.
    ...workerEnv({ databaseUrl: db.url, redisUrl: TEST_REDIS_URL, prefix, wikiApiUrl: 'http://127.0.0.1:9/w/api.php' }),
    ...(options.localCorpusDir
      ? { SEARCH_PROVIDER: 'local', LOCAL_CORPUS_DIR: options.localCorpusDir }
      : { SEARCH_PROVIDER: 'searxng', SEARXNG_URL: web.searchUrl.replace(/\/search$/, '') }),
    ...options.env,
  };
  const port = await freePort();
  const api = spawnNodeProcess(`${label}-api`, API_MAIN, {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_ROOT: WEB_DIST,
  });
  const worker = spawnNodeProcess(`${label}-worker`, WORKER_MAIN, env);
  await Promise.all([waitForLogLine(api, 'API listening', 30_000), waitForLogLine(worker, 'worker started', 30_000)]);
  const userKey = await createApiKey(db.db, `${label}-user`);
  const adminKey = await createApiKey(db.db, `${label}-admin`);
  await setUserAdminByName(db.db, `${label}-admin`);
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    db,
    web,
    api,
    worker,
    userKey,
    adminKey,
    call: client(base, userKey),
    async close() {
      await killAllProcesses();
      await web.close();
      await clearRedisPrefix(prefix);
      fs.rmSync(dataDir, { recursive: true, force: true });
      await db.drop();
    },
  };
}

/** Starts a quick run through the API as the user; answers its id. */
export async function createRun(stack: WebStack, query: string): Promise<string> {
  const created = await stack.call('POST', '/v1/research', { query, depth: 'quick', language: 'en' });
  if (created.status !== 200) throw new Error(`POST /v1/research answered ${created.status}: ${created.body.detail}`);
  return created.body.research_id as string;
}

/** Waits until the run has ended (any final state); answers that state. */
export async function waitForRunEnd(stack: WebStack, id: string, timeoutMs = 30_000): Promise<string> {
  return waitFor(
    `run ${id} to end`,
    async () => {
      const run = await stack.call('GET', `/v1/research/${id}`);
      return run.body.is_running === false ? (run.body.state as string) : undefined;
    },
    timeoutMs,
    100,
  );
}
