import { isAppError, type AppError } from '@research/core';
import { findRunById, listClaims, listEvidence, listSources } from '@research/database';
import { createSilentLogger } from '@research/observability';
import { createResearchRun, listRuns, purgeRun, softDeleteRun, type RequestScope } from '@research/runs';
import { buildTestApp, insertRunResults, insertTestRun, type TestApp, type TestUser } from '../http/support';

// The follow-up use cases without HTTP: what createResearchRun stores for a run with parent_id, and what it refuses,
// over a real Postgres database.

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp('follow-up-use-cases');
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

async function refusal(call: Promise<unknown>): Promise<AppError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isAppError(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

const followUp = (parentId: string, admit?: () => Promise<void>) =>
  createResearchRun(
    t.ctx,
    scopeOf(t.owner),
    { query: 'Und was folgt daraus?', language: 'de', depth: 'quick', extra_queries: null, parent_id: parentId },
    admit,
  );

describe('createResearchRun with parent_id', () => {
  it('copies the parent’s sources, claims and evidence under ids of the follow-up’s own, in round 0', async () => {
    const parent = await insertTestRun(t.db, { owner: t.other.id, state: 'completed', depth: 'quick' });
    await insertRunResults(t.db, parent, { sources: 3 });
    const { id } = await followUp(parent);

    const [sources, parentSources] = await Promise.all([listSources(t.db, id), listSources(t.db, parent)]);
    const [claims, parentClaims] = await Promise.all([listClaims(t.db, id), listClaims(t.db, parent)]);
    const evidence = await listEvidence(t.db, id);
    const strip = <R extends { id: string; run_id: string }>({ id: _id, run_id: _run, ...rest }: R) => rest;
    expect(sources.map((s) => ({ ...strip(s), round: 0 }))).toEqual(
      parentSources.map((s) => ({ ...strip(s), round: 0 })),
    );
    expect(sources.every((s) => s.round === 0)).toBe(true);
    expect(sources.map((s) => s.id).filter((sid) => parentSources.some((p) => p.id === sid))).toEqual([]);
    // Each copied claim cites its source's copy, each score its claim's copy.
    const copyOf = new Map(parentSources.map((p) => [p.id, sources.find((s) => s.position === p.position)!.id]));
    expect(claims.map((c) => [c.source_id, c.claim_text, c.evidence_span])).toEqual(
      parentClaims.map((c) => [copyOf.get(c.source_id), c.claim_text, c.evidence_span]),
    );
    expect(evidence.map((e) => e.claim_id).sort()).toEqual(claims.map((c) => c.id).sort());

    const run = (await findRunById(t.db, id))!;
    expect(run).toMatchObject({ parent_id: parent, source_count: 3, claim_count: 6, state: 'created' });
    // Its own room is the depth's: the inherited sources come on top.
    expect(run.budget.max_sources).toBe(15 + 3);
  });

  it('leaves the follow-up whole when the parent is deleted and purged', async () => {
    const parent = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed' });
    await insertRunResults(t.db, parent, { sources: 2 });
    const { id } = await followUp(parent);
    await softDeleteRun(t.ctx, scopeOf(t.owner), parent, {});
    await purgeRun(t.ctx, scopeOf(t.admin, true), parent);
    expect(await findRunById(t.db, parent)).toBeUndefined();
    expect((await findRunById(t.db, id))!.parent_id).toBeNull();
    expect(await listSources(t.db, id)).toHaveLength(2);
    expect(await listClaims(t.db, id)).toHaveLength(4);
    expect(await listEvidence(t.db, id)).toHaveLength(4);
  });

  it('refuses a running parent with 409 and a failed or unknown one with 422, before the quota admits it', async () => {
    let admitted = 0;
    const admit = async () => void admitted++;
    const running = await insertTestRun(t.db, { owner: t.owner.id, state: 'analyzing' });
    expect((await refusal(followUp(running, admit))).status).toBe(409);
    const failed = await insertTestRun(t.db, { owner: t.owner.id, state: 'failed' });
    expect((await refusal(followUp(failed, admit))).status).toBe(422);
    expect((await refusal(followUp('not-a-uuid', admit))).message).toBe('parent_id: research run not-a-uuid not found');
    expect(admitted).toBe(0);
  });

  it('accepts a stopped parent, and lists the follow-ups of a run', async () => {
    const parent = await insertTestRun(t.db, { owner: t.owner.id, state: 'cancelled' });
    const first = await followUp(parent);
    const second = await followUp(parent);
    const listed = await listRuns(t.db, { limit: 10, offset: 0 }, { parentId: parent });
    expect(listed.total).toBe(2);
    expect(listed.items.map((i) => i.id)).toEqual([second.id, first.id]);
    expect(await listRuns(t.db, { limit: 10, offset: 0 }, { parentId: 'nonsense' })).toEqual({ total: 0, items: [] });
  });
});
