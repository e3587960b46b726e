import { PasswordHasher } from '@research/auth';
import { AppError, DEPTH_BUDGETS, Details, isAppError } from '@research/core';
import { findRetentionRecord, findRunById, listRunEvents, type Database } from '@research/database';
import { createSilentLogger } from '@research/observability';
import { createBullResearchQueue } from '@research/queue';
import {
  cancelRun,
  createResearchRun,
  getRunReport,
  getVisibleRun,
  listHiddenRuns,
  listRuns,
  protectRun,
  purgeRun,
  softDeleteRun,
  unprotectRun,
  type RequestScope,
  type RunsContext,
} from '@research/runs';
import { buildTestApp, insertTestRun, unusedPort, type TestApp, type TestUser } from '../http/support';

// The use cases called as a route calls them, without HTTP: over a real Postgres database and a BullMQ
// queue on the test Redis (the services test/http/support builds, as runtime's composition root does).

let t: TestApp;
let ctx: RunsContext;

beforeAll(async () => {
  t = await buildTestApp('use-cases');
  ctx = t.ctx;
});
afterAll(async () => {
  await t.close();
});

function scopeOf(user: TestUser, isAdmin = false): RequestScope {
  return {
    actor: { userId: user.id, username: user.username, isAdmin, keyId: user.keyId },
    requestId: `req-${user.username}`,
    logger: createSilentLogger(),
  };
}

/** The AppError a use case threw (a test fails when it threw something else or nothing). */
async function refusal(call: Promise<unknown>): Promise<AppError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

async function runCount(db: Database): Promise<number> {
  const row = await db
    .selectFrom('research_runs')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

const input = (over: Partial<Parameters<typeof createResearchRun>[2]> = {}) => ({
  query: 'Wie wirkt Homeoffice auf die Produktivität?',
  language: 'de',
  depth: 'quick',
  extra_queries: null,
  ...over,
});

describe('createResearchRun', () => {
  it('stores the run and its retention record for the caller, then enqueues a job of ids only', async () => {
    const created = await createResearchRun(ctx, scopeOf(t.owner), input({ max_sources: 3 }));
    expect(created).toEqual({ id: expect.any(String), query: input().query, depth: 'quick' });
    const run = await findRunById(ctx.db, created.id);
    expect(run).toMatchObject({ state: 'created', owner_user_id: t.owner.id, request_id: 'req-' + t.owner.username });
    expect(run?.budget).toMatchObject({ max_sources: 3 });
    expect(run?.enqueued_at).not.toBeNull();
    expect(await findRetentionRecord(ctx.db, created.id)).toMatchObject({ owner_user_id: t.owner.id });
    expect((await t.findJob(created.id))?.data).toEqual({
      research_id: created.id,
      request_id: 'req-' + t.owner.username,
    });
  });

  it('refuses an unknown depth and a max_sources above the depth’s, storing nothing and admitting no one', async () => {
    const before = await runCount(ctx.db);
    let admitted = 0;
    const admit = async () => void admitted++;
    const depth = await refusal(createResearchRun(ctx, scopeOf(t.owner), input({ depth: 'endless' }), admit));
    expect([depth.code, depth.message]).toEqual(['bad_request', Details.invalidDepth('endless')]);
    const tooMany = await refusal(createResearchRun(ctx, scopeOf(t.owner), input({ max_sources: 1000 }), admit));
    const most = DEPTH_BUDGETS.quick.max_sources;
    expect([tooMany.code, tooMany.message]).toEqual([
      'validation',
      `max_sources: must be at most ${most} for depth quick`,
    ]);
    expect(admitted).toBe(0);
    expect(await runCount(ctx.db)).toBe(before);
  });

  it('keeps a run it could not enqueue, unmarked, and tells the hook (the reconciler enqueues it later)', async () => {
    const down = createBullResearchQueue({
      redisUrl: `redis://127.0.0.1:${await unusedPort()}`,
      prefix: 'rs-test-down',
      logger: createSilentLogger(),
    });
    const failed: string[] = [];
    try {
      const created = await createResearchRun(
        { ...ctx, queue: down, onEnqueueFailed: (id) => failed.push(id) },
        scopeOf(t.owner),
        input(),
      );
      expect(failed).toEqual([created.id]);
      expect(await findRunById(ctx.db, created.id)).toMatchObject({ state: 'created', enqueued_at: null });
    } finally {
      await down.close();
    }
  });
});

describe('deletion, protection and purge', () => {
  const passwords = new PasswordHasher(2);

  it('hides a protected run only for its owner with the password, and an administrator purges it', async () => {
    const id = await insertTestRun(ctx.db, {
      owner: t.owner.id,
      passwordHash: await passwords.hash('correct horse battery staple'),
    });
    const notOwner = await refusal(softDeleteRun(ctx, scopeOf(t.other), id, {}));
    expect([notOwner.code, notOwner.message]).toEqual(['forbidden', Details.notOwner]);
    const noPassword = await refusal(softDeleteRun(ctx, scopeOf(t.owner), id, { password: 'wrong password' }));
    expect([noPassword.code, noPassword.message]).toEqual(['forbidden', Details.passwordRequired]);
    await expect(getVisibleRun(ctx.db, id)).resolves.toMatchObject({ id });

    await expect(
      softDeleteRun(ctx, scopeOf(t.owner), id, { password: 'correct horse battery staple' }),
    ).resolves.toEqual({ research_id: id });
    expect((await refusal(getVisibleRun(ctx.db, id))).code).toBe('not_found');
    const { items } = await listRuns(ctx.db, { limit: 100, offset: 0 });
    expect(items.map((r) => r.id)).not.toContain(id);
    expect((await listHiddenRuns(ctx)).map((r) => r.research_id)).toContain(id);

    await expect(purgeRun(ctx, scopeOf(t.admin, true), id)).resolves.toEqual({ research_id: id });
    expect(await findRunById(ctx.db, id)).toBeUndefined();
    expect(await findRetentionRecord(ctx.db, id)).toBeUndefined();
    const again = await refusal(purgeRun(ctx, scopeOf(t.admin, true), id));
    expect([again.code, again.message]).toEqual(['not_found', Details.noHiddenRun]);
  });

  it('sets, checks and removes the deletion-protection password, storing only its hash', async () => {
    const id = await insertTestRun(ctx.db, { owner: t.owner.id });
    await protectRun(ctx, scopeOf(t.owner), id, { password: 'first long password' });
    const stored = (await findRetentionRecord(ctx.db, id))?.password_hash ?? '';
    expect(stored).toMatch(/^\$argon2id\$/);
    const replace = await refusal(protectRun(ctx, scopeOf(t.owner), id, { password: 'second long password' }));
    expect(replace.code).toBe('forbidden');
    await unprotectRun(ctx, scopeOf(t.owner), id, { password: 'first long password' });
    expect((await findRetentionRecord(ctx.db, id))?.password_hash).toBeNull();
    // An administrator needs no password, and a run not protected any more deletes without one.
    await expect(softDeleteRun(ctx, scopeOf(t.owner), id, {})).resolves.toEqual({ research_id: id });
  });
});

describe('cancelRun', () => {
  it('ends a running run as cancelled with a report that says it was stopped; a second stop is a conflict', async () => {
    const id = await insertTestRun(ctx.db, { owner: t.owner.id, state: 'searching' });
    const signal = new AbortController().signal;
    const notOwner = await refusal(cancelRun(ctx, scopeOf(t.other), id, signal));
    expect(notOwner.code).toBe('forbidden');

    await expect(cancelRun(ctx, scopeOf(t.owner), id, signal)).resolves.toEqual({ research_id: id });
    const run = await getVisibleRun(ctx.db, id);
    expect(run.state).toBe('cancelled');
    // Stopped before its plan: the report (in the run's language) says where, and the stream ends with it.
    const report = (await getRunReport(ctx.db, run))?.report as { uncertainties: string[] };
    expect(report.uncertainties).toContainEqual(expect.stringContaining('angehalten (bei Planung, Runde 1)'));
    const events = (await listRunEvents(ctx.db, id)).slice(-4);
    expect(events.map((e) => e.type)).toEqual(['stopped', 'report', 'state', 'end']);
    expect(events[0]?.data).toEqual({ step: 'plan', round: 1 });
    expect(events.at(-1)?.data).toEqual({ state: 'cancelled' });

    const again = await refusal(cancelRun(ctx, scopeOf(t.owner), id, signal));
    expect(again.code).toBe('conflict');
  });
});
