import request from 'supertest';
import { revokeApiKey } from '@research/database';
import { NOT_A_UUID, UNKNOWN_ID, buildTestApp, insertRunResults, insertTestRun, type TestApp } from './support';

// The reads of one run check the key and read the run in a single statement. These pin what that path
// must keep: the key is re-checked on every request, and a bad key is 401 before any 404.
describe('reads of one run (key and run in one statement)', () => {
  let t: TestApp;
  let runId: string;
  let hiddenId: string;
  beforeAll(async () => {
    t = await buildTestApp('runreadauth');
    runId = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed' });
    await insertRunResults(t.db, runId, { sources: 1, report: { summary: 'Zusammenfassung' } });
    hiddenId = await insertTestRun(t.db, { owner: t.owner.id, hidden: true, state: 'cancelled' });
  });
  afterAll(() => t.close());

  const read = (path: string, key: string | undefined) => {
    const req = request(t.app).get(path);
    return key === undefined ? req : req.set('X-API-Key', key);
  };

  describe.each(['/status', '', '/sources', '/report', '/report/document'])('GET /v1/research/:id%s', (suffix) => {
    it('refuses a key revoked between two requests', async () => {
      const user = await t.createUser(`revoked${suffix.replaceAll('/', '-')}`);
      await read(`/v1/research/${runId}${suffix}`, user.key).expect(200);
      await revokeApiKey(t.db, user.keyId);
      await read(`/v1/research/${runId}${suffix}`, user.key).expect(401, { detail: 'API key has been revoked.' });
    });

    it('refuses a key that expired between two requests', async () => {
      const user = await t.createUser(`expired${suffix.replaceAll('/', '-')}`, { expiresInDays: 1 });
      await read(`/v1/research/${runId}${suffix}`, user.key).expect(200);
      await t.db
        .updateTable('api_keys')
        .set({ expires_at: new Date(Date.now() - 1000) })
        .where('id', '=', user.keyId)
        .execute();
      await read(`/v1/research/${runId}${suffix}`, user.key).expect(401, { detail: 'API key has expired.' });
    });

    it('refuses a key whose expiry passes while the process runs (clock, not a cached answer)', async () => {
      const user = await t.createUser(`expiring${suffix.replaceAll('/', '-')}`);
      // Room enough for the first read on a busy machine; then the clock passes the expiry, nothing else changes.
      const expiry = Date.now() + 1500;
      await t.db
        .updateTable('api_keys')
        .set({ expires_at: new Date(expiry) })
        .where('id', '=', user.keyId)
        .execute();
      await read(`/v1/research/${runId}${suffix}`, user.key).expect(200);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiry - Date.now()) + 50));
      await read(`/v1/research/${runId}${suffix}`, user.key).expect(401, { detail: 'API key has expired.' });
    });

    it.each([
      ['an unknown run', () => UNKNOWN_ID],
      ['a malformed id', () => NOT_A_UUID],
      ['a hidden run', () => hiddenId],
      ['a visible run', () => runId],
    ])('answers 401 before 404 for %s', async (_label, id) => {
      await read(`/v1/research/${id()}${suffix}`, undefined).expect(401, {
        detail: 'Missing API key (send it in the X-API-Key header).',
      });
      await read(`/v1/research/${id()}${suffix}`, 'garbage').expect(401, { detail: 'Invalid API key.' });
      await read(`/v1/research/${id()}${suffix}`, `${t.owner.key.slice(0, -4)}AAAA`).expect(401, {
        detail: 'Invalid API key.',
      });
      await read(`/v1/research/${id()}${suffix}`, `rsk_0123456789abcdef_${'A'.repeat(43)}`).expect(401, {
        detail: 'Invalid API key.',
      });
    });

    it.each([
      ['an unknown run', () => UNKNOWN_ID],
      ['a malformed id', () => NOT_A_UUID],
      ['a hidden run', () => hiddenId],
    ])('answers 404 for %s once the key is good', async (_label, id) => {
      await read(`/v1/research/${id()}${suffix}`, t.owner.key).expect(404, {
        detail: `Research run ${id()} not found`,
      });
    });

    it('reads a broken JSON body (400) after the key and before the run', async () => {
      const broken = (id: string, key?: string) => {
        const req = request(t.app).get(`/v1/research/${id}${suffix}`).set('Content-Type', 'application/json');
        return (key === undefined ? req : req.set('X-API-Key', key)).send('{broken');
      };
      await broken(UNKNOWN_ID).expect(401);
      await broken(UNKNOWN_ID, t.owner.key).expect(400, { detail: 'Malformed JSON body.' });
    });
  });

  it('answers each of many concurrent reads with its own run and its own key', async () => {
    // Concurrent lookups share statements; every answer must still be the one for its own pair.
    const revoked = await t.createUser('concurrent-revoked');
    await revokeApiKey(t.db, revoked.keyId);
    const keys = [t.owner.key, t.other.key, t.admin.key, revoked.key, `${t.owner.key.slice(0, -4)}AAAA`];
    const runs = await Promise.all(
      Array.from({ length: 12 }, (_, n) => insertTestRun(t.db, { owner: t.owner.id, query: `Parallel ${n}` })),
    );
    const ids = [...runs, hiddenId, UNKNOWN_ID, NOT_A_UUID];
    const server = t.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    try {
      const cases = ids.flatMap((id) => keys.map((key) => ({ id, key })));
      const answers = await Promise.all(
        cases.map(async ({ id, key }) => {
          const res = await fetch(`http://127.0.0.1:${port}/v1/research/${id}/status`, {
            headers: { 'X-API-Key': key },
          });
          return { status: res.status, body: (await res.json()) as Record<string, unknown> };
        }),
      );
      cases.forEach(({ id, key }, n) => {
        const answer = answers[n]!;
        if (key === revoked.key) {
          expect(answer).toEqual({ status: 401, body: { detail: 'API key has been revoked.' } });
        } else if (key.endsWith('AAAA')) {
          expect(answer).toEqual({ status: 401, body: { detail: 'Invalid API key.' } });
        } else if (runs.includes(id)) {
          expect(answer.status).toBe(200);
          expect(answer.body).toMatchObject({ research_id: id, query: `Parallel ${runs.indexOf(id)}` });
        } else {
          expect(answer).toEqual({ status: 404, body: { detail: `Research run ${id} not found` } });
        }
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('sees a run hidden between two requests as gone', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id });
    await read(`/v1/research/${id}/status`, t.owner.key).expect(200);
    await request(t.app).delete(`/v1/research/${id}`).set('X-API-Key', t.owner.key).expect(200);
    await read(`/v1/research/${id}/status`, t.owner.key).expect(404);
  });

  it('shows the protection flag read in the same statement', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: await t.passwords.hash('x'.repeat(12)) });
    const res = await read(`/v1/research/${id}/status`, t.other.key).expect(200);
    expect(res.body.is_deletion_protected).toBe(true);
    const unprotected = await read(`/v1/research/${runId}`, t.other.key).expect(200);
    expect(unprotected.body.is_deletion_protected).toBe(false);
  });
});
