import request from 'supertest';
import { revokeApiKey } from '@research/database';
import { extractivePlan } from '@research/engine';
import { buildTestApp, insertTestRun, type TestApp, type TestUser } from './support';

type Caller = 'owner' | 'other' | 'admin';

interface RouteCase {
  name: string;
  /** Builds the request against a fresh run owned by `owner`. */
  send(t: TestApp, key: string | undefined): Promise<request.Response>;
  /** Expected status for each authenticated caller. */
  expected: Record<Caller, number>;
}

const READ_SUFFIXES = ['', '/status', '/sources', '/claims', '/evidence', '/plan', '/report', '/report/document'];

function withKey(req: request.Test, key: string | undefined): request.Test {
  return key === undefined ? req : req.set('X-API-Key', key);
}

/** A run of `owner` that waits for the review of its plan (plan review), as the runner leaves it. */
async function waitingRun(t: TestApp): Promise<string> {
  const plan = extractivePlan({ query: 'Auth-Matrix', language: 'de', extraQueries: [], referenceDate: new Date() });
  const id = await insertTestRun(t.db, { owner: t.owner.id, state: 'awaiting_review', plan });
  await t.db
    .updateTable('research_runs')
    .set({ review_plan: true, checkpoint: JSON.stringify({ round: 1, done: ['plan'], rounds: 2 }) })
    .where('id', '=', id)
    .execute();
  return id;
}

const ROUTES: RouteCase[] = [
  {
    name: 'POST /v1/research',
    send: (t, key) => withKey(request(t.app).post('/v1/research'), key).send({ query: 'Auth-Matrix' }),
    expected: { owner: 200, other: 200, admin: 200 },
  },
  {
    name: 'GET /v1/research',
    send: (t, key) => withKey(request(t.app).get('/v1/research'), key),
    expected: { owner: 200, other: 200, admin: 200 },
  },
  ...READ_SUFFIXES.map<RouteCase>((suffix) => ({
    name: `GET /v1/research/:id${suffix}`,
    send: async (t, key) =>
      withKey(request(t.app).get(`/v1/research/${await insertTestRun(t.db, { owner: t.owner.id })}${suffix}`), key),
    expected: { owner: 200, other: 200, admin: 200 },
  })),
  {
    name: 'DELETE /v1/research/:id',
    send: async (t, key) =>
      withKey(request(t.app).delete(`/v1/research/${await insertTestRun(t.db, { owner: t.owner.id })}`), key),
    expected: { owner: 200, other: 403, admin: 200 },
  },
  {
    name: 'PUT /v1/research/:id/deletion-protection',
    send: async (t, key) =>
      withKey(
        request(t.app).put(`/v1/research/${await insertTestRun(t.db, { owner: t.owner.id })}/deletion-protection`),
        key,
      ).send({
        password: 'a fine password',
      }),
    expected: { owner: 200, other: 403, admin: 200 },
  },
  {
    name: 'DELETE /v1/research/:id/deletion-protection',
    send: async (t, key) =>
      withKey(
        request(t.app).delete(`/v1/research/${await insertTestRun(t.db, { owner: t.owner.id })}/deletion-protection`),
        key,
      ).send({}),
    expected: { owner: 200, other: 403, admin: 200 },
  },
  {
    name: 'PUT /v1/research/:id/plan',
    send: async (t, key) =>
      withKey(request(t.app).put(`/v1/research/${await waitingRun(t)}/plan`), key).send({ sub_questions: ['Wer?'] }),
    expected: { owner: 200, other: 403, admin: 200 },
  },
  {
    name: 'POST /v1/research/:id/approve',
    send: async (t, key) => withKey(request(t.app).post(`/v1/research/${await waitingRun(t)}/approve`), key),
    expected: { owner: 202, other: 403, admin: 202 },
  },
  {
    name: 'GET /v1/admin/research/deleted',
    send: (t, key) => withKey(request(t.app).get('/v1/admin/research/deleted'), key),
    expected: { owner: 403, other: 403, admin: 200 },
  },
  {
    name: 'DELETE /v1/admin/research/:id',
    send: async (t, key) =>
      withKey(
        request(t.app).delete(
          `/v1/admin/research/${await insertTestRun(t.db, { owner: t.owner.id, hidden: true, state: 'cancelled' })}`,
        ),
        key,
      ),
    expected: { owner: 403, other: 403, admin: 200 },
  },
];

describe('API keys on every /v1 route', () => {
  let t: TestApp;
  let revoked: TestUser;
  let expired: TestUser;
  beforeAll(async () => {
    t = await buildTestApp('auth');
    revoked = await t.createUser('revoked-user');
    await revokeApiKey(t.db, revoked.keyId);
    expired = await t.createUser('expired-user', { expiresInDays: 1 });
    await t.db
      .updateTable('api_keys')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', expired.keyId)
      .execute();
  });
  afterAll(() => t.close());

  const rejected: Array<[string, () => string | undefined, string]> = [
    ['no key', () => undefined, 'Missing API key (send it in the X-API-Key header).'],
    ['an empty key', () => '', 'Missing API key (send it in the X-API-Key header).'],
    ['a garbage key', () => 'garbage', 'Invalid API key.'],
    ['a well-formed key with a wrong secret', () => `${t.owner.key.slice(0, -4)}AAAA`, 'Invalid API key.'],
    ['an unknown well-formed key', () => `rsk_0123456789abcdef_${'A'.repeat(43)}`, 'Invalid API key.'],
    ['a revoked key', () => revoked.key, 'API key has been revoked.'],
    ['an expired key', () => expired.key, 'API key has expired.'],
  ];

  describe.each(ROUTES.map((r) => [r.name, r] as const))('%s', (_name, route) => {
    it.each(rejected)('rejects %s with 401', async (_label, key, detail) => {
      const res = await route.send(t, key());
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ detail });
    });

    it.each(['owner', 'other', 'admin'] as const)('answers the %s as SPEC 4–5 say', async (caller) => {
      const res = await route.send(t, t[caller].key);
      expect([res.status, res.body]).toEqual([route.expected[caller], expect.anything()]);
      if (res.status >= 400) expect(Object.keys(res.body)).toEqual(['detail']);
    });
  });

  it('rejects a missing key before reading the body (401, not 400)', async () => {
    await request(t.app).post('/v1/research').set('Content-Type', 'application/json').send('{broken').expect(401);
  });

  it('changes nothing for a rejected caller', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id });
    await request(t.app).delete(`/v1/research/${id}`).set('X-API-Key', revoked.key).expect(401);
    await request(t.app).get(`/v1/research/${id}`).set('X-API-Key', t.owner.key).expect(200);
  });

  it('rejects a key the moment it is revoked', async () => {
    const user = await t.createUser('soon-revoked');
    await request(t.app).get('/v1/research').set('X-API-Key', user.key).expect(200);
    await revokeApiKey(t.db, user.keyId);
    await request(t.app)
      .get('/v1/research')
      .set('X-API-Key', user.key)
      .expect(401, { detail: 'API key has been revoked.' });
  });

  it('sees a newly granted administrator role on the next request', async () => {
    const user = await t.createUser('promoted');
    await request(t.app).get('/v1/admin/research/deleted').set('X-API-Key', user.key).expect(403);
    await t.db.updateTable('users').set({ is_admin: true }).where('id', '=', user.id).execute();
    await request(t.app).get('/v1/admin/research/deleted').set('X-API-Key', user.key).expect(200);
  });
});
