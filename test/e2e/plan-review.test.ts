import fs from 'node:fs';
import { createApiKey } from './fleet-support';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { freePort, killAllProcesses, spawnNodeProcess, waitForLogLine, type NodeProcess } from '../support/processes';
import { clearRedisPrefix, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis';
import { openSse } from '../support/sse';
import { waitFor } from '../support/wait';
import { WORKER_MAIN, workerEnv } from '../worker/worker-fixtures';
import { API_MAIN, client } from './support';

const QUESTION = { query: 'photosynthesis light energy plants', depth: 'quick', language: 'en', review_plan: true };
const EDITED_QUERY = 'chlorophyll pigment absorbs light';

// Plan review through the real API and worker processes on Postgres and Redis (the compose topology): a run
// created with review_plan stops after planning, no job holding it, until its owner approves it.
describe('plan review across the API and a worker', () => {
  let t: TestDatabase;
  let wiki: FakeWiki;
  let prefix: string;
  let base: string;
  let env: Record<string, string>;
  let worker: NodeProcess;
  let owner: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  let ownerKey: string;

  beforeAll(async () => {
    t = await createTestDatabase('review');
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
    prefix = uniqueRedisPrefix('review');
    env = workerEnv({ databaseUrl: t.url, redisUrl: TEST_REDIS_URL, prefix, wikiApiUrl: wiki.apiUrl });
    const port = await freePort();
    const api = spawnNodeProcess('api', API_MAIN, {
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: `/tmp/${prefix}`,
    });
    worker = spawnNodeProcess('w1', WORKER_MAIN, env);
    await Promise.all([waitForLogLine(api, 'API listening', 30_000), waitForLogLine(worker, 'worker started', 30_000)]);
    ownerKey = await createApiKey(t.db, 'review-owner');
    base = `http://127.0.0.1:${port}`;
    owner = client(base, ownerKey);
    other = client(base, await createApiKey(t.db, 'review-other'));
  }, 60_000);
  afterAll(async () => {
    await killAllProcesses();
    await wiki.close();
    await clearRedisPrefix(prefix);
    fs.rmSync(`/tmp/${prefix}`, { recursive: true, force: true });
    await t.drop();
  });

  /** True once `process` logged that the run's job ended with its plan waiting. */
  const jobEnded = (process: NodeProcess, id: string) =>
    process.lines.some((l) => l.message === 'research run awaits the review of its plan' && l.research_id === id);

  /** Creates a run with review_plan and waits until it awaits review and its job has ended. */
  async function pausedRun(): Promise<string> {
    const created = await owner('POST', '/v1/research', QUESTION);
    expect(created.status).toBe(200);
    expect(created.body.state).toBe('created');
    const id = created.body.research_id as string;
    await waitFor('the run to await review', async () => jobEnded(worker, id), 30_000);
    return id;
  }

  const events = async (id: string) => {
    const page = await owner('GET', `/v1/research/${id}/events?limit=1000`, undefined, { Accept: 'application/json' });
    return page.body.items as Array<{ type: string; state?: string; action?: string; [key: string]: unknown }>;
  };

  it('stops after planning: awaiting_review, the plan readable, no search sent, no step after it', async () => {
    const searchedBefore = wiki.searched.length;
    const id = await pausedRun();
    const status = await owner('GET', `/v1/research/${id}`);
    expect(status.body).toMatchObject({ state: 'awaiting_review', is_running: true, is_completed: false });
    expect(status.body.search_count).toBe(0);
    expect(wiki.searched.slice(searchedBefore)).toEqual([]);
    const plan = await owner('GET', `/v1/research/${id}/plan`);
    expect(plan.body.available).toBe(true);
    expect(plan.body.plan.search_queries.length).toBeGreaterThan(0);
    expect(plan.body.plan.sub_questions.length).toBeGreaterThan(0);
    const history = await events(id);
    expect(history.filter((e) => e.type === 'state').map((e) => e.state)).toEqual([
      'created',
      'planning',
      'awaiting_review',
    ]);
    expect(history.map((e) => e.type).slice(-2)).toEqual(['state', 'review']);
    expect(history.at(-1)).toMatchObject({ type: 'review', action: 'waiting' });
    expect(history.map((e) => e.type)).not.toContain('query');
  }, 60_000);

  it('is edited and approved by its owner, then completes having searched the edited queries', async () => {
    const id = await pausedRun();
    const stream = openSse(`${base}/v1/research/${id}/events`, { 'X-API-Key': ownerKey });
    const original = (await owner('GET', `/v1/research/${id}/plan`)).body.plan;
    const dropped = [...original.search_queries.map((q: any) => q.query), ...original.counter_evidence_queries].filter(
      (q: string) => q !== QUESTION.query,
    );
    expect(dropped.length).toBeGreaterThan(0);

    const edited = await owner('PUT', `/v1/research/${id}/plan`, {
      search_queries: [EDITED_QUERY],
      sub_questions: ['Which pigment absorbs the light?'],
    });
    expect(edited.status).toBe(200);
    expect(edited.body.plan).toMatchObject({
      search_queries: [{ query: EDITED_QUERY, dimension: 'user' }],
      counter_evidence_queries: [],
      sub_questions: ['Which pigment absorbs the light?'],
      query: original.query,
      language: original.language,
    });
    expect((await owner('GET', `/v1/research/${id}/plan`)).body).toEqual(edited.body);
    // An edit of one list keeps the other.
    const again = await owner('PUT', `/v1/research/${id}/plan`, { search_queries: [EDITED_QUERY] });
    expect(again.body.plan.sub_questions).toEqual(['Which pigment absorbs the light?']);
    expect((await owner('GET', `/v1/research/${id}`)).body.state).toBe('awaiting_review');

    const searchedBefore = wiki.searched.length;
    const approved = await owner('POST', `/v1/research/${id}/approve`);
    expect(approved.status).toBe(202);
    expect(approved.body).toEqual({ research_id: id, status: 'approved', state: 'searching' });
    await stream.closed;
    const status = await owner('GET', `/v1/research/${id}`);
    expect(status.body.state).toBe('completed');
    const searched = wiki.searched.slice(searchedBefore);
    expect(searched).toContain(EDITED_QUERY);
    expect(searched).toContain(QUESTION.query);
    for (const query of dropped) expect(searched).not.toContain(query);
    const sources = await owner('GET', `/v1/research/${id}/sources`);
    expect(sources.body.total).toBeGreaterThan(0);

    // The stream showed the pause, the edits and the approval, then the run going on to its end.
    const seen = stream.events.map((e) => (e.event === 'state' ? `state:${e.data.state}` : e.event));
    const reviews = stream.events.filter((e) => e.event === 'review').map((e) => e.data.action);
    expect(reviews).toEqual(['waiting', 'edited', 'edited', 'approved']);
    expect(stream.events.find((e) => e.data.action === 'edited')!.data).toMatchObject({
      queries: [EDITED_QUERY],
      sub_questions: ['Which pigment absorbs the light?'],
    });
    const at = (name: string) => seen.indexOf(name);
    expect(at('state:awaiting_review')).toBeLessThan(at('review'));
    expect(seen.lastIndexOf('review')).toBeLessThan(at('state:searching'));
    expect(at('state:searching')).toBeLessThan(at('query'));
    expect(seen.slice(-2)).toEqual(['state:completed', 'end']);
  }, 90_000);

  it('refuses what breaks the rules: 422 for bad lists and a bad review_plan, 409 outside the review', async () => {
    const bad = await owner('POST', '/v1/research', { ...QUESTION, review_plan: 'yes' });
    expect(bad).toMatchObject({ status: 422, body: { detail: 'review_plan: must be a boolean' } });
    const id = await pausedRun();
    const tooMany = await owner('PUT', `/v1/research/${id}/plan`, { search_queries: Array(21).fill('light') });
    expect(tooMany).toMatchObject({ status: 422, body: { detail: 'search_queries: must have at most 20 items' } });
    const tooLong = await owner('PUT', `/v1/research/${id}/plan`, { sub_questions: ['x'.repeat(501)] });
    expect(tooLong).toMatchObject({ status: 422, body: { detail: 'sub_questions.0: must be 1 to 500 characters' } });
    const empty = await owner('PUT', `/v1/research/${id}/plan`, { search_queries: [''] });
    expect(empty).toMatchObject({ status: 422, body: { detail: 'search_queries.0: must be 1 to 500 characters' } });
    const notList = await owner('PUT', `/v1/research/${id}/plan`, { search_queries: 'light' });
    expect(notList.status).toBe(422);
    const noBody = await owner('PUT', `/v1/research/${id}/plan`);
    expect(noBody.status).toBe(422);
    // Bad input changed nothing.
    const history = await events(id);
    expect(history.filter((e) => e.type === 'review').map((e) => e.action)).toEqual(['waiting']);

    expect((await owner('POST', `/v1/research/${id}/approve`)).status).toBe(202);
    const twice = await owner('POST', `/v1/research/${id}/approve`);
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toMatch(
      new RegExp(`^Research run ${id} is not awaiting review \\(state \\w+\\); only a run awaiting review`),
    );
    const late = await owner('PUT', `/v1/research/${id}/plan`, { search_queries: [EDITED_QUERY] });
    expect(late.status).toBe(409);
    expect(late.body.detail).toMatch(/its plan can be changed only while it awaits review\.$/);
    await waitFor(
      'the run to complete',
      async () => (await owner('GET', `/v1/research/${id}`)).body.state === 'completed',
      30_000,
    );
    expect((await owner('POST', `/v1/research/${id}/approve`)).body.detail).toBe(
      `Research run ${id} is not awaiting review (state completed); only a run awaiting review of its plan can be approved.`,
    );

    // A run created without review_plan never waits: approving it is a 409 as well.
    const plain = await owner('POST', '/v1/research', { ...QUESTION, review_plan: false });
    const plainId = plain.body.research_id as string;
    await waitFor(
      'the plain run to complete',
      async () => (await owner('GET', `/v1/research/${plainId}`)).body.state === 'completed',
      30_000,
    );
    expect((await events(plainId)).map((e) => e.type)).not.toContain('review');
    expect((await owner('POST', `/v1/research/${plainId}/approve`)).status).toBe(409);
  }, 90_000);

  it('is for its owner: 403 for another caller, 404 for an unknown or malformed id, 401 without a key', async () => {
    const id = await pausedRun();
    const forbidden = await other('POST', `/v1/research/${id}/approve`);
    expect(forbidden).toMatchObject({ status: 403, body: { detail: 'You may only manage your own research runs.' } });
    const edit = await other('PUT', `/v1/research/${id}/plan`, { search_queries: ['x light'] });
    expect(edit).toMatchObject({ status: 403, body: { detail: 'You may only manage your own research runs.' } });
    for (const unknown of ['0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61', 'not-a-uuid']) {
      const approve = await owner('POST', `/v1/research/${unknown}/approve`);
      expect(approve).toMatchObject({ status: 404, body: { detail: `Research run ${unknown} not found` } });
      const put = await owner('PUT', `/v1/research/${unknown}/plan`, { search_queries: [] });
      expect(put).toMatchObject({ status: 404, body: { detail: `Research run ${unknown} not found` } });
    }
    expect((await client(base)('POST', `/v1/research/${id}/approve`)).status).toBe(401);
    const history = await events(id);
    expect(history.filter((e) => e.type === 'review').map((e) => e.action)).toEqual(['waiting']);
    expect((await owner('GET', `/v1/research/${id}`)).body.state).toBe('awaiting_review');
  }, 60_000);

  it('is cancelled while it waits: cancelled, with the stop report a cancel writes', async () => {
    const id = await pausedRun();
    const stopped = await owner('POST', `/v1/research/${id}/cancel`);
    expect(stopped.status).toBe(202);
    const status = await owner('GET', `/v1/research/${id}`);
    expect(status.body.state).toBe('cancelled');
    const report = await owner('GET', `/v1/research/${id}/report`);
    expect(report.body.uncertainties.join(' ')).toMatch(/stopped before it finished/);
    const types = (await events(id)).map((e) => e.type);
    expect(types.slice(-4)).toEqual(['stopped', 'report', 'state', 'end']);
    expect((await owner('POST', `/v1/research/${id}/approve`)).status).toBe(409);
  }, 60_000);

  it('stays waiting when the worker crashes and another starts; approved while no worker runs, it completes', async () => {
    const id = await pausedRun();
    worker.child.kill('SIGKILL');
    await worker.exited;
    const next = spawnNodeProcess('w2', WORKER_MAIN, env);
    await waitForLogLine(next, 'worker started', 30_000);
    // A run created now is picked up and completed by the new worker (its reconciler passes meanwhile, one
    // each second): the waiting run is left as it is.
    const plain = await owner('POST', '/v1/research', { ...QUESTION, review_plan: false });
    const plainId = plain.body.research_id as string;
    await waitFor(
      'the plain run to complete',
      async () => (await owner('GET', `/v1/research/${plainId}`)).body.state === 'completed',
      30_000,
    );
    expect((await owner('GET', `/v1/research/${id}`)).body.state).toBe('awaiting_review');
    expect(next.holds(id)).toBe(false);
    expect(next.lines.some((l) => l.research_id === id)).toBe(false);

    // Approved while no worker runs: the run waits in its next state for the next worker.
    next.child.kill('SIGKILL');
    await next.exited;
    expect((await owner('POST', `/v1/research/${id}/approve`)).status).toBe(202);
    worker = spawnNodeProcess('w3', WORKER_MAIN, env);
    await waitFor(
      'the approved run to complete',
      async () => (await owner('GET', `/v1/research/${id}`)).body.state === 'completed',
      30_000,
    );
  }, 120_000);
});
