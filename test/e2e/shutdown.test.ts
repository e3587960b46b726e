import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startFakeSite, type FakeSite } from '../crawler/support';
import { createTestDatabase, type TestDatabase } from '../support/database';
import {
  childPids,
  freePort,
  killAllProcesses,
  processExists,
  spawnLoggedProcess,
  waitForLogLine,
  type NodeProcess,
} from '../support/processes';
import { TEST_REDIS_URL, clearRedisPrefix, uniqueRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';
import { createApiKey } from './fleet-support';
import { ROOT } from './support';

const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
// How long the search stand-in takes to answer: the request in flight when the signal arrives.
const SLOW_SEARCH_MS = 1_500;
/**
 * How soon after the last answer npm and the service have exited: well under the 65 s an idle keep-alive connection
 * would hold the server and the 30 s a worker may take, above what npm's own exit takes on two busy cores (2.2 s).
 */
const EXIT_AFTER_LAST_RESPONSE_MS = 10_000;

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A client that keeps its one connection alive between requests, as most HTTP clients do by default. */
function keepAliveClient(port: number, key: string) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, route: string, body?: unknown) =>
    new Promise<Answer>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: route,
          agent,
          headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        },
      );
      req.on('error', reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    });
  return { send, agent };
}

/** `npm <args>` in the repository, as a process manager runs it. */
function spawnNpm(name: string, args: string[], env: Record<string, string>): NodeProcess {
  // npm needs a home for its cache and config; nothing else of ours leaks in.
  return spawnLoggedProcess(name, NPM, args, { HOME: os.homedir(), ...env }, { cwd: ROOT });
}

/** The node process npm started (`exec` makes it npm's direct child). */
function nodeUnder(npm: NodeProcess): number {
  const pids = childPids(npm.child.pid!);
  expect(pids).toHaveLength(1);
  const command = fs.readFileSync(`/proc/${pids[0]}/cmdline`, 'utf8').split('\0');
  expect(path.basename(command[0]!)).toBe('node');
  return pids[0]!;
}

describe('SIGTERM to `npm start` and `npm run start:*`', () => {
  let search: FakeSite;
  const dirs: string[] = [];
  beforeAll(async () => {
    search = await startFakeSite((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ results: [] }));
      }, SLOW_SEARCH_MS);
    });
  });
  afterAll(async () => {
    await killAllProcesses();
    await search.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  const tempDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-shutdown-'));
    dirs.push(dir);
    return dir;
  };

  const apiEnv = (port: number, dataDir: string) => ({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEARCH_PROVIDER: 'searxng',
    SEARXNG_URL: search.origin,
    SEARCH_MAX_RETRIES: '0',
    // Well above the 2 s the test allows, so a stop that waits for the deadline fails as exit 1.
    SHUTDOWN_TIMEOUT_MS: '10000',
  });

  /**
   * A keep-alive client has a request in flight when npm gets SIGTERM: the request is answered (saying
   * `Connection: close`), then npm and node exit 0 within 2 s of that answer.
   */
  async function stopDuringSlowRequest(npm: NodeProcess, port: number, key: string): Promise<void> {
    const node = nodeUnder(npm);
    const client = keepAliveClient(port, key);
    const idle = keepAliveClient(port, key);
    try {
      const first = await client.send('GET', '/health');
      expect(first.headers.connection).toBe('keep-alive');
      // A second connection, idle at the signal.
      expect((await idle.send('GET', '/health')).status).toBe(200);

      const hitsBefore = search.totalHits();
      const slow = client.send('POST', '/search', { query: 'Homeoffice' });
      await waitFor('the search to reach the provider', async () => search.totalHits() > hitsBefore, 10_000, 20);
      npm.child.kill('SIGTERM');

      const answer = await slow;
      const answeredAt = Date.now();
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ query: 'Homeoffice', provider: 'searxng' });
      expect(answer.headers.connection).toBe('close');

      const exit = await npm.exited;
      const exitMs = Date.now() - answeredAt;
      process.stdout.write(`${npm.name}: exited ${exitMs} ms after the last response\n`);
      expect(exit).toEqual({ code: 0, signal: null });
      // Promptly, not after an idle keep-alive connection's 65 s or a worker's 30 s: npm's own exit took 2.2 s on
      // CI's two busy cores.
      expect(exitMs).toBeLessThan(EXIT_AFTER_LAST_RESPONSE_MS);
      expect(processExists(node)).toBe(false);
      expect(npm.lines.some((l) => l.level === 'error')).toBe(false);
    } finally {
      client.agent.destroy();
      idle.agent.destroy();
    }
  }

  it('npm start: finishes the request in flight on a keep-alive connection, then node and npm exit 0', async () => {
    const dir = tempDir();
    const port = await freePort();
    const npm = spawnNpm('npm start', ['start'], apiEnv(port, dir));
    await waitForLogLine(npm, 'service listening', 120_000);
    const key = fs.readFileSync(path.join(dir, 'initial-admin-key'), 'utf8').trim();
    await stopDuringSlowRequest(npm, port, key);
  }, 150_000);

  describe('with Postgres and Redis', () => {
    let database: TestDatabase;
    let prefix: string;
    let key: string;
    beforeAll(async () => {
      database = await createTestDatabase('shutdown');
      prefix = uniqueRedisPrefix('shutdown');
      key = await createApiKey(database.db, 'shutdown-user');
    });
    afterAll(async () => {
      await killAllProcesses();
      await clearRedisPrefix(prefix);
      await database.drop();
    });

    const env = (port: number) => ({
      ...apiEnv(port, tempDir()),
      DATABASE_URL: database.url,
      REDIS_URL: TEST_REDIS_URL,
      REDIS_PREFIX: prefix,
    });

    it('npm run start:api: the same', async () => {
      const port = await freePort();
      const npm = spawnNpm('npm run start:api', ['run', 'start:api'], env(port));
      await waitForLogLine(npm, 'API listening', 60_000);
      await stopDuringSlowRequest(npm, port, key);
    }, 120_000);

    it('npm run start:worker: node gets the signal and exits 0', async () => {
      const npm = spawnNpm('npm run start:worker', ['run', 'start:worker'], env(await freePort()));
      await waitForLogLine(npm, 'worker started', 60_000);
      const node = nodeUnder(npm);
      npm.child.kill('SIGTERM');
      const exit = await npm.exited;
      expect({ exit, errors: npm.lines.filter((l) => l.level === 'error') }).toEqual({
        exit: { code: 0, signal: null },
        errors: [],
      });
      expect(processExists(node)).toBe(false);
      expect(npm.lines.some((l) => l.message === 'worker stopped')).toBe(true);
    }, 120_000);
  });
});
