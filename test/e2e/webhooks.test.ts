import fs from 'node:fs';
import http from 'node:http';
import { finishRun, type Database } from '@research/database';
import { createApiKey } from './fleet-support';
import { API_MAIN, client } from './support';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { freePort, killAllProcesses, spawnNodeProcess, waitForLogLine, type NodeProcess } from '../support/processes';
import { TEST_REDIS_URL, clearRedisPrefix, uniqueRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';
import { WORKER_MAIN, insertTestRun, workerEnv } from '../worker/worker-fixtures';

const SECRET = 'webhook-test-secret-0123456789';
const QUERY = { query: 'photosynthesis light energy plants', depth: 'quick', language: 'en' };

/** Deliveries of one run, as the receiver saw them. */
function receivedFor(receiver: WebhookReceiver, id: string) {
  return receiver.received.filter((r) => r.json.research_id === id);
}

async function attemptsOf(db: Database, id: string) {
  return db
    .selectFrom('webhook_delivery_attempts as a')
    .innerJoin('webhook_deliveries as d', 'd.id', 'a.delivery_id')
    .select(['a.attempt', 'a.status_code', 'a.error'])
    .where('d.run_id', '=', id)
    .orderBy('a.attempt')
    .execute();
}

/**
 * Waits until the run's delivery is settled (delivered or given up: no attempt can be claimed any more) and
 * every attempt it claimed has its record. An attempt is recorded after the receiver has answered it, so from
 * then on the receiver has seen every request the delivery will ever make.
 */
async function settledDelivery(db: Database, id: string): Promise<void> {
  await waitFor(
    'the delivery to settle with every attempt recorded',
    async () => {
      const delivery = await db
        .selectFrom('webhook_deliveries')
        .select(['attempts', 'next_attempt_at'])
        .where('run_id', '=', id)
        .executeTakeFirst();
      return delivery?.next_attempt_at === null && (await attemptsOf(db, id)).length === delivery.attempts;
    },
    20_000,
    50,
  );
}

// Webhooks end to end: the API and a worker as real processes on the test's Postgres and Redis, a loopback
// receiver that checks each signature with the secret. Retries start at 300 ms so the suite stays short.
describe('webhooks (API and worker processes, loopback receiver)', () => {
  let t: TestDatabase;
  let wiki: FakeWiki;
  let receiver: WebhookReceiver;
  let prefix: string;
  let dataDir: string;
  let env: Record<string, string>;
  let api: NodeProcess;
  let worker: NodeProcess;
  let call: ReturnType<typeof client>;

  async function startWorker(name: string): Promise<NodeProcess> {
    const started = spawnNodeProcess(name, WORKER_MAIN, env);
    await waitForLogLine(started, 'worker started', 30_000);
    return started;
  }

  beforeAll(async () => {
    t = await createTestDatabase('webhooks');
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
    receiver = await startWebhookReceiver(SECRET);
    prefix = uniqueRedisPrefix('webhooks');
    dataDir = `/tmp/${prefix}`;
    env = {
      ...workerEnv({ databaseUrl: t.url, redisUrl: TEST_REDIS_URL, prefix, wikiApiUrl: wiki.apiUrl }),
      WEBHOOK_SECRET: SECRET,
      WEBHOOK_RETRY_BASE_MS: '300',
      WEBHOOK_TIMEOUT_MS: '2000',
    };
    const port = await freePort();
    api = spawnNodeProcess('api', API_MAIN, { ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir });
    await waitForLogLine(api, 'API listening', 30_000);
    worker = await startWorker('w1');
    call = client(`http://127.0.0.1:${port}`, await createApiKey(t.db, 'webhook-user'));
  });

  afterAll(async () => {
    await killAllProcesses();
    await receiver?.close();
    await wiki?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
    if (prefix) await clearRedisPrefix(prefix);
    await t?.drop();
  });

  async function createRun(callbackUrl: string): Promise<string> {
    const r = await call<{ research_id: string }>('POST', '/v1/research', { ...QUERY, callback_url: callbackUrl });
    expect(r.status).toBe(200);
    return r.body.research_id;
  }

  it('announces a completed run exactly once, signed with the secret, and lists the attempt', async () => {
    const id = await createRun(`${receiver.origin}/hooks/done`);
    await waitFor('the webhook', async () => receivedFor(receiver, id).length > 0, 60_000);
    await settledDelivery(t.db, id);
    const got = receivedFor(receiver, id);
    expect(got).toHaveLength(1);
    expect(got[0]!.validSignature).toBe(true);
    const status = await call<{ state: string; updated_at: string }>('GET', `/v1/research/${id}`);
    expect(status.body.state).toBe('completed');
    expect(Object.keys(got[0]!.json)).toEqual(['event', 'research_id', 'state', 'finished_at']);
    expect(got[0]!.json).toMatchObject({ event: 'research.completed', research_id: id, state: 'completed' });
    expect(new Date(String(got[0]!.json.finished_at)).toISOString()).toBe(got[0]!.json.finished_at);
    // The signature's time is the time of sending.
    const t0 = /t=(\d+)/.exec(got[0]!.signature)![1]!;
    expect(Math.abs(Number(t0) - Math.floor(got[0]!.at / 1000))).toBeLessThanOrEqual(5);

    const listed = await call<{ research_id: string; items: Array<Record<string, unknown>> }>(
      'GET',
      `/v1/research/${id}/webhook-deliveries`,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.research_id).toBe(id);
    expect(listed.body.items).toEqual([
      { attempt: 1, at: expect.any(String), event: 'research.completed', status_code: 200, error: null },
    ]);
    // The receiver's answer stays out of the logs; the secret too.
    const logs = JSON.stringify([...worker.lines, ...api.lines]);
    expect(logs).not.toContain('receiver body that must not be logged');
    expect(logs).not.toContain(SECRET);
  });

  it('retries a receiver that answers 500 twice, with growing waits, and stops at the 200', async () => {
    receiver.answers = [500, 500];
    const id = await createRun(`${receiver.origin}/hooks/flaky`);
    await waitFor('three attempts', async () => receivedFor(receiver, id).length >= 3, 60_000);
    await settledDelivery(t.db, id);
    const got = receivedFor(receiver, id);
    expect(got).toHaveLength(3);
    expect(got.every((g) => g.validSignature)).toBe(true);
    // The waits the worker chose (WEBHOOK_RETRY_BASE_MS, then twice it), as its log says…
    const waits = worker.lines
      .filter((l) => l.message === 'webhook attempt failed; retrying' && l.research_id === id)
      .map((l) => l.retry_in_ms);
    expect(waits).toEqual([300, 600]);
    // …and no retry reached the receiver before its wait was over (a busy machine only makes a wait longer).
    expect(got[1]!.at - got[0]!.at).toBeGreaterThanOrEqual(300);
    expect(got[2]!.at - got[1]!.at).toBeGreaterThanOrEqual(600);
    const listed = await call<{ items: Array<{ attempt: number; status_code: number | null }> }>(
      'GET',
      `/v1/research/${id}/webhook-deliveries`,
    );
    expect(listed.body.items.map((i) => [i.attempt, i.status_code])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it('announces a failed run as research.failed', async () => {
    // A run that fails: ended by the same repository function the runner's failure path uses.
    const run = await insertTestRun(t.db);
    await t.db
      .updateTable('research_runs')
      .set({ callback_url: `${receiver.origin}/hooks/failed` })
      .where('id', '=', run.id)
      .execute();
    await t.db.transaction().execute(async (trx) => {
      await finishRun(trx, run.id, { state: 'failed', error: 'search provider down', failedStep: 'search' });
    });
    await waitFor('the webhook', async () => receivedFor(receiver, run.id).length > 0, 20_000);
    const [got] = receivedFor(receiver, run.id);
    expect(got!.validSignature).toBe(true);
    expect(got!.json).toMatchObject({ event: 'research.failed', research_id: run.id, state: 'failed' });
  });

  it('announces a run deleted while it runs as research.cancelled', async () => {
    const id = await createRun(`${receiver.origin}/hooks/deleted`);
    const deleted = await call('DELETE', `/v1/research/${id}`);
    expect(deleted.status).toBe(200);
    await waitFor('the webhook', async () => receivedFor(receiver, id).length > 0, 20_000);
    expect(receivedFor(receiver, id)[0]!.json).toMatchObject({ event: 'research.cancelled', state: 'cancelled' });
    // Its deliveries are read as the run is: a hidden run is not found.
    expect((await call('GET', `/v1/research/${id}/webhook-deliveries`)).status).toBe(404);
  });

  it('announces a run stopped by POST …/cancel as research.cancelled', async () => {
    const id = await createRun(`${receiver.origin}/hooks/cancelled`);
    const stopped = await call('POST', `/v1/research/${id}/cancel`);
    expect(stopped.status).toBe(202);
    await waitFor('the webhook', async () => receivedFor(receiver, id).length > 0, 20_000);
    const got = receivedFor(receiver, id);
    expect(got).toHaveLength(1);
    expect(got[0]!.json).toMatchObject({ event: 'research.cancelled', research_id: id, state: 'cancelled' });
  });

  it('delivers after a restart when the worker is killed during the delivery', async () => {
    // A receiver that never answers its first request: the worker is killed while that attempt is in flight.
    let hung: http.ServerResponse | undefined;
    const seen: Array<{ at: number; body: string }> = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push({ at: Date.now(), body });
        if (seen.length === 1) hung = res;
        else res.end('ok');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const id = await createRun(`http://127.0.0.1:${port}/hooks/restart`);
      await waitFor('the first attempt', async () => seen.length === 1, 60_000, 20);
      worker.child.kill('SIGKILL');
      await worker.exited;
      hung?.destroy();
      worker = await startWorker('w1-restarted');
      await waitFor('the delivery after the restart', async () => seen.length >= 2, 40_000);
      expect(JSON.parse(seen[1]!.body)).toMatchObject({ event: 'research.completed', research_id: id });
      await settledDelivery(t.db, id);
      expect(seen).toHaveLength(2);
      // The attempt the killed worker made is listed too: without an outcome.
      const listed = await call<{
        items: Array<{ attempt: number; status_code: number | null; error: string | null }>;
      }>('GET', `/v1/research/${id}/webhook-deliveries`);
      expect(listed.body.items.map((i) => [i.attempt, i.status_code, i.error])).toEqual([
        [1, null, 'no outcome: the worker stopped during the attempt'],
        [2, 200, null],
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
