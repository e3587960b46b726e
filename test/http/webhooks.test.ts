import request from 'supertest';
import { cancelHiddenRunningRuns, finishRun, findRunById, hideVisibleRun } from '@research/database';
import { buildTestApp, insertTestRun, type TestApp } from './support';

const SECRET = 'webhook-test-secret-0123456789';

async function deliveriesOf(t: TestApp, runId: string) {
  return t.db.selectFrom('webhook_deliveries').selectAll().where('run_id', '=', runId).execute();
}

async function runCount(t: TestApp): Promise<number> {
  const row = await t.db
    .selectFrom('research_runs')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('POST /v1/research with callback_url', () => {
  describe('without WEBHOOK_SECRET', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp('hooks-off', { env: { CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true' } });
    });
    afterAll(() => t.close());

    it('refuses any callback_url with 422 that says webhooks are not enabled, and stores nothing', async () => {
      const before = await runCount(t);
      const res = await request(t.app)
        .post('/v1/research')
        .set('X-API-Key', t.owner.key)
        .send({ query: 'q', callback_url: 'https://example.org/hook' })
        .expect(422);
      expect(res.body.detail).toBe(
        'callback_url: webhooks are not enabled on this service (WEBHOOK_SECRET is not set)',
      );
      expect(await runCount(t)).toBe(before);
    });

    it('still creates runs without one, answering the SPEC shape', async () => {
      const res = await request(t.app).post('/v1/research').set('X-API-Key', t.owner.key).send({ query: 'q' });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body).sort()).toEqual(['depth', 'query', 'research_id', 'state', 'status']);
    });
  });

  describe('with WEBHOOK_SECRET and the crawler refusing private networks (the default)', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp('hooks-guarded', { env: { WEBHOOK_SECRET: SECRET } });
    });
    afterAll(() => t.close());

    it.each([
      ['http://127.0.0.1:8080/hook', /^callback_url: The address of 127\.0\.0\.1 is not allowed/],
      ['http://10.1.2.3/hook', /^callback_url: The address of 10\.1\.2\.3 is not allowed/],
      ['http://169.254.169.254/latest/meta-data', /^callback_url: The address of 169\.254\.169\.254 is not allowed/],
      ['http://localhost:8080/hook', /^callback_url: The address of localhost is not allowed/],
      ['ftp://example.org/hook', /^callback_url: Only http and https URLs are fetched, not ftp\.$/],
      ['https://user:pw@example.org/hook', /^callback_url: URLs with credentials are refused\.$/],
      ['not a url', /^callback_url: The URL cannot be parsed\.$/],
    ])('refuses %s with 422 and stores nothing', async (url, detail) => {
      const before = await runCount(t);
      const res = await request(t.app)
        .post('/v1/research')
        .set('X-API-Key', t.owner.key)
        .send({ query: 'q', callback_url: url })
        .expect(422);
      expect(res.body.detail).toMatch(detail);
      expect(await runCount(t)).toBe(before);
    });

    it('refuses a callback_url that is not a string with 422', async () => {
      const res = await request(t.app)
        .post('/v1/research')
        .set('X-API-Key', t.owner.key)
        .send({ query: 'q', callback_url: 42 })
        .expect(422);
      expect(res.body.detail).toMatch(/^callback_url: /);
    });
  });

  describe('with WEBHOOK_SECRET and private networks allowed', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await buildTestApp('hooks-on', { env: { WEBHOOK_SECRET: SECRET, CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true' } });
    });
    afterAll(() => t.close());

    it('stores the callback_url and answers exactly the SPEC shape', async () => {
      const res = await request(t.app)
        .post('/v1/research')
        .set('X-API-Key', t.owner.key)
        .send({ query: 'q', callback_url: 'http://127.0.0.1:9/hook' })
        .expect(200);
      expect(Object.keys(res.body).sort()).toEqual(['depth', 'query', 'research_id', 'state', 'status']);
      expect((await findRunById(t.db, res.body.research_id))!.callback_url).toBe('http://127.0.0.1:9/hook');
      const status = await request(t.app).get(`/v1/research/${res.body.research_id}`).set('X-API-Key', t.owner.key);
      expect(status.body).not.toHaveProperty('callback_url');
    });

    it('still refuses cloud metadata addresses', async () => {
      const res = await request(t.app)
        .post('/v1/research')
        .set('X-API-Key', t.owner.key)
        .send({ query: 'q', callback_url: 'http://169.254.169.254/' })
        .expect(422);
      expect(res.body.detail).toMatch(/^callback_url: /);
    });
  });
});

describe('the delivery a run owes when it ends', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('hooks-owed', { env: { WEBHOOK_SECRET: SECRET } });
  });
  afterAll(() => t.close());

  async function runWithCallback(callback: string | null): Promise<string> {
    const id = await insertTestRun(t.db, { owner: t.owner.id, state: 'searching' });
    await t.db.updateTable('research_runs').set({ callback_url: callback }).where('id', '=', id).execute();
    return id;
  }

  it('is written with the end: research.failed for a failed run, once', async () => {
    const id = await runWithCallback('http://127.0.0.1:9/hook');
    await t.db.transaction().execute(async (trx) => {
      await finishRun(trx, id, { state: 'failed', error: 'boom', failedStep: 'search' });
    });
    await hideVisibleRun(t.db, id);
    const rows = await deliveriesOf(t, id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ event: 'research.failed', attempts: 0, delivered_at: null });
    expect(rows[0]!.payload).toMatchObject({ event: 'research.failed', research_id: id, state: 'failed' });
  });

  it('is not written when the end does not commit', async () => {
    const id = await runWithCallback('http://127.0.0.1:9/hook');
    await expect(
      t.db.transaction().execute(async (trx) => {
        await finishRun(trx, id, { state: 'completed' });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await deliveriesOf(t, id)).toEqual([]);
  });

  it('is research.cancelled for a run deleted while it runs', async () => {
    const id = await runWithCallback('http://127.0.0.1:9/hook');
    await request(t.app).delete(`/v1/research/${id}`).set('X-API-Key', t.owner.key).expect(200);
    expect((await deliveriesOf(t, id)).map((r) => r.event)).toEqual(['research.cancelled']);
  });

  it('is owed by every way a run ends, the reconciler’s cancel of a hidden run included', async () => {
    const id = await runWithCallback('http://127.0.0.1:9/hook');
    await t.db.updateTable('research_runs').set({ is_hidden: true }).where('id', '=', id).execute();
    await cancelHiddenRunningRuns(t.db);
    expect((await deliveriesOf(t, id)).map((r) => r.event)).toEqual(['research.cancelled']);
  });

  it('is not owed by a run without callback_url', async () => {
    const id = await runWithCallback(null);
    await finishRun(t.db, id, { state: 'completed' });
    expect(await deliveriesOf(t, id)).toEqual([]);
  });
});

describe('GET /v1/research/{id}/webhook-deliveries', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('hooks-read');
  });
  afterAll(() => t.close());

  it('needs a key (401) and a visible run (404)', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id });
    await request(t.app).get(`/v1/research/${id}/webhook-deliveries`).expect(401);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const res = await request(t.app).get(`/v1/research/${unknown}/webhook-deliveries`).set('X-API-Key', t.other.key);
    expect(res.status).toBe(404);
    expect(res.body.detail).toBe(`Research run ${unknown} not found`);
    const hidden = await insertTestRun(t.db, { owner: t.owner.id, hidden: true });
    await request(t.app).get(`/v1/research/${hidden}/webhook-deliveries`).set('X-API-Key', t.owner.key).expect(404);
  });

  it('lists no attempts for a run that owes none, to any caller who may read the run', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id });
    const res = await request(t.app).get(`/v1/research/${id}/webhook-deliveries`).set('X-API-Key', t.other.key);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ research_id: id, items: [] });
  });
});
