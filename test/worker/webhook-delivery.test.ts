import http from 'node:http';
import { sql } from 'kysely';
import { createAddressPolicy, createGuardedAgents, systemResolver, type Resolver } from '@research/crawler';
import { finishRun, listWebhookAttempts, type Database } from '@research/database';
import { createSilentLogger } from '@research/observability';
import { deliverWebhook, type WebhookDeliveryDeps } from '@research/pipeline';
import { createInProcessWebhookQueue, startWebhookDispatcher } from '@research/queue';
import { startWebhookReceiver, type WebhookReceiver } from '../fakes/webhook-receiver';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { fakeTimeoutsOnly, settlesBeforeNextTurn } from '../support/fake-timers';
import { listenOnLoopback } from '../support/loopback';
import { waitFor } from '../support/wait';
import { insertTestRun } from './worker-fixtures';

const SECRET = 'webhook-test-secret-0123456789';

/** A run with a callback_url that has just failed (its delivery owed). */
async function endedRun(db: Database, callbackUrl: string): Promise<string> {
  const run = await insertTestRun(db);
  await db.updateTable('research_runs').set({ callback_url: callbackUrl }).where('id', '=', run.id).execute();
  await db
    .transaction()
    .execute((trx) => finishRun(trx, run.id, { state: 'failed', error: 'x', failedStep: 'search' }));
  return run.id;
}

async function deliveryIdOf(db: Database, runId: string): Promise<string> {
  const row = await db.selectFrom('webhook_deliveries').select('id').where('run_id', '=', runId).executeTakeFirst();
  return row!.id;
}

/**
 * Whether the run's delivery is settled (delivered or given up: no attempt can be claimed any more) with every
 * attempt it claimed recorded. An attempt is recorded after the receiver answered it, so from then on the
 * receiver has seen every request the delivery will ever make.
 */
async function isSettled(db: Database, runId: string): Promise<boolean> {
  const delivery = await db
    .selectFrom('webhook_deliveries')
    .select(['attempts', 'next_attempt_at'])
    .where('run_id', '=', runId)
    .executeTakeFirst();
  return delivery?.next_attempt_at === null && (await listWebhookAttempts(db, runId)).length === delivery.attempts;
}

/** Makes a delivery's next attempt due now, as if its wait had passed. */
async function makeDue(db: Database, deliveryId: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: sql<Date>`now()` })
    .where('id', '=', deliveryId)
    .execute();
}

// The delivery job on its own (the in-process queue of `npm start` without Redis, and the attempt itself),
// against real Postgres and loopback receivers.
describe('webhook delivery', () => {
  let t: TestDatabase;
  let receiver: WebhookReceiver;
  const agents: Array<ReturnType<typeof createGuardedAgents>> = [];

  function deps(options: { resolver?: Resolver; allowPrivate?: boolean; timeoutMs?: number } = {}) {
    const guard = {
      resolver: options.resolver ?? systemResolver,
      policy: createAddressPolicy({ allowPrivateNetworks: options.allowPrivate ?? true }),
    };
    const made = createGuardedAgents(guard);
    agents.push(made);
    return {
      db: t.db,
      secret: SECRET,
      timeoutMs: options.timeoutMs ?? 2_000,
      retryBaseMs: 200,
      guard,
      agents: made,
    } satisfies WebhookDeliveryDeps;
  }

  beforeAll(async () => {
    t = await createTestDatabase('webhookdelivery');
    receiver = await startWebhookReceiver(SECRET);
  });
  afterAll(async () => {
    for (const a of agents) a.destroy();
    await receiver?.close();
    await t?.drop();
  });

  it('in-process: the dispatcher finds the owed delivery and the queue retries it until the 200', async () => {
    receiver.answers = [503];
    const id = await endedRun(t.db, `${receiver.origin}/in-process`);
    const logger = createSilentLogger();
    const d = deps();
    const queue = createInProcessWebhookQueue({
      concurrency: 2,
      handler: (payload, log) => deliverWebhook(d, payload.delivery_id, log),
      logger,
    });
    const dispatcher = startWebhookDispatcher({ db: t.db, queue, logger, intervalMs: 100 });
    try {
      await waitFor('the delivery', async () => receiver.received.filter((r) => r.json.research_id === id).length >= 2);
      await waitFor('the delivery to settle with every attempt recorded', () => isSettled(t.db, id));
    } finally {
      await dispatcher.stop();
      await queue.close();
    }
    const got = receiver.received.filter((r) => r.json.research_id === id);
    expect(got).toHaveLength(2);
    expect(got.every((g) => g.validSignature)).toBe(true);
    expect(got[0]!.json).toMatchObject({ event: 'research.failed', state: 'failed' });
    const attempts = await listWebhookAttempts(t.db, id);
    expect(attempts.map((a) => [a.attempt, a.status_code])).toEqual([
      [1, 503],
      [2, 200],
    ]);
  });

  it('never sends a delivered webhook again', async () => {
    const id = await endedRun(t.db, `${receiver.origin}/once`);
    const deliveryId = await deliveryIdOf(t.db, id);
    const d = deps();
    expect(await deliverWebhook(d, deliveryId, createSilentLogger())).toBeUndefined();
    expect(await deliverWebhook(d, deliveryId, createSilentLogger())).toBeUndefined();
    expect(receiver.received.filter((r) => r.json.research_id === id)).toHaveLength(1);
  });

  it('checks the address again at delivery: a name that now resolves to loopback is refused', async () => {
    // The name passed at creation; by now its DNS answers with a private address (rebinding).
    const rebinding: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const id = await endedRun(t.db, `http://hooks.example.org:${receiver.port}/rebound`);
    const d = deps({ resolver: rebinding, allowPrivate: false });
    const next = await deliverWebhook(d, await deliveryIdOf(t.db, id), createSilentLogger());
    expect(next).toEqual({ retryInMs: 200 });
    expect(receiver.received.filter((r) => r.json.research_id === id)).toEqual([]);
    const [attempt] = await listWebhookAttempts(t.db, id);
    expect(attempt).toMatchObject({ attempt: 1, status_code: null });
    expect(attempt!.error).toMatch(/does not resolve to an address the crawler may fetch/);
  });

  it('gives an attempt WEBHOOK_TIMEOUT_MS, records the timeout, and gives up after the fifth attempt', async () => {
    let requests = 0;
    const silent = http.createServer(() => requests++);
    const server = await listenOnLoopback(silent);
    try {
      const id = await endedRun(t.db, `${server.origin}/silent`);
      const deliveryId = await deliveryIdOf(t.db, id);
      const d = deps({ timeoutMs: 300 });
      // The attempt's clock is Jest's (ticked here), the receiver and Postgres real: the attempt ends when
      // its 300 ms have passed on that clock, not before and not after.
      fakeTimeoutsOnly();
      let first: Promise<{ retryInMs: number } | void>;
      let hungUp = false;
      try {
        const arrived = new Promise<http.IncomingMessage>((resolve) => silent.once('request', resolve));
        first = deliverWebhook(d, deliveryId, createSilentLogger());
        first.catch(() => undefined);
        // The receiver sees the attempt hang up when its time is over.
        const request = await arrived;
        const closed = new Promise((resolve) => request.socket.once('close', resolve));
        void closed.then(() => (hungUp = true));
        await jest.advanceTimersByTimeAsync(299);
        expect(await settlesBeforeNextTurn(closed)).toBe(false);
        await jest.advanceTimersByTimeAsync(1);
      } finally {
        jest.useRealTimers();
      }
      // What follows the tick (the hang-up, the attempt's record) is real I/O, waited for.
      await waitFor('the attempt to hang up', async () => hungUp);
      await expect(first).resolves.toEqual({ retryInMs: 200 });
      const [attempt1] = await listWebhookAttempts(t.db, id);
      expect(attempt1!.error).toBe('no answer within 300 ms');
      // The remaining attempts, each made due at once instead of waited for; the waits double.
      const waits: Array<number | undefined> = [];
      for (let n = 2; n <= 5; n++) {
        await makeDue(t.db, deliveryId);
        const next = await deliverWebhook(d, deliveryId, createSilentLogger());
        waits.push(next ? next.retryInMs : undefined);
      }
      expect(waits).toEqual([400, 800, 1600, undefined]);
      expect(requests).toBe(5);
      expect((await listWebhookAttempts(t.db, id)).map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5]);
      const row = await t.db
        .selectFrom('webhook_deliveries')
        .selectAll()
        .where('id', '=', deliveryId)
        .executeTakeFirst();
      expect(row).toMatchObject({ attempts: 5, next_attempt_at: null, delivered_at: null });
      expect(await deliverWebhook(d, deliveryId, createSilentLogger())).toBeUndefined();
    } finally {
      await server.close();
    }
  });
});
