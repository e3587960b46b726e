import request from 'supertest';
import { Details } from '@research/core';
import { findRetentionRecord, findRunById, listAuditRecords } from '@research/database';
import {
  NOT_A_UUID,
  PASSWORD,
  UNKNOWN_ID,
  buildTestApp,
  insertRunResults,
  insertTestRun,
  type TestApp,
} from './support';

describe('DELETE /v1/research/:id', () => {
  let t: TestApp;
  let hash: string;
  beforeAll(async () => {
    t = await buildTestApp('delete');
    hash = await t.passwords.hash(PASSWORD);
  });
  afterAll(() => t.close());

  const del = (id: string, key: string, body?: unknown) => {
    const req = request(t.app)
      .delete(`/v1/research/${encodeURIComponent(id)}`)
      .set('X-API-Key', key);
    return body === undefined ? req : req.send(body as object);
  };

  async function expectUntouched(id: string) {
    const run = await findRunById(t.db, id);
    expect(run!.is_hidden).toBe(false);
    expect(run!.state).not.toBe('cancelled');
    expect((await findRetentionRecord(t.db, id))?.is_hidden ?? false).toBe(false);
    expect(await listAuditRecords(t.db, id)).toEqual([]);
  }

  it('lets the owner hide a run: cancelled, updated_at set, record hidden, audit soft_deleted', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id, state: 'searching' });
    const res = await del(id, t.owner.key).expect(200);
    expect(res.body).toEqual({ status: 'hidden', research_id: id });

    const run = await findRunById(t.db, id);
    expect(run).toMatchObject({ is_hidden: true, state: 'cancelled' });
    expect(run!.updated_at).toBeInstanceOf(Date);
    const record = await findRetentionRecord(t.db, id);
    expect(record).toMatchObject({ is_hidden: true });
    expect(record!.hidden_at).toBeInstanceOf(Date);
    const audit = await listAuditRecords(t.db, id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ research_id: id, actor_user_id: t.owner.id, action: 'soft_deleted' });
  });

  it('makes the run disappear from every read', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed' });
    await insertRunResults(t.db, id, { sources: 1, report: { summary: 's' } });
    await del(id, t.owner.key).expect(200);
    for (const suffix of ['', '/status', '/sources', '/claims', '/evidence', '/plan', '/report']) {
      await request(t.app)
        .get(`/v1/research/${id}${suffix}`)
        .set('X-API-Key', t.owner.key)
        .expect(404, { detail: Details.runNotFound(id) });
    }
    const list = await request(t.app).get('/v1/research?limit=100').set('X-API-Key', t.owner.key).expect(200);
    expect(list.text).not.toContain(id);
  });

  it('soft-deletes a completed run', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed' });
    await del(id, t.owner.key).expect(200);
    expect((await findRunById(t.db, id))!.state).toBe('cancelled');
  });

  it.each([
    ['an unknown id', () => UNKNOWN_ID],
    ['a malformed id', () => NOT_A_UUID],
  ])('answers 404 for %s', async (_name, id) => {
    await del(id(), t.owner.key).expect(404, { detail: Details.runNotFound(id()) });
  });

  it('answers 404 for a run that is already hidden, and writes no second audit record', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id });
    await del(id, t.owner.key).expect(200);
    await del(id, t.owner.key).expect(404, { detail: Details.runNotFound(id) });
    expect(await listAuditRecords(t.db, id)).toHaveLength(1);
  });

  it('refuses another user with 403 and changes nothing', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id });
    await del(id, t.other.key).expect(403, { detail: Details.notOwner });
    await expectUntouched(id);
  });

  it('refuses another user before looking at the password (rule 2 before rule 3)', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
    await del(id, t.other.key, { password: PASSWORD }).expect(403, { detail: Details.notOwner });
    await expectUntouched(id);
  });

  it("lets an administrator hide another user's run, audited with the administrator as actor", async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id });
    await del(id, t.admin.key).expect(200, { status: 'hidden', research_id: id });
    expect((await listAuditRecords(t.db, id))[0]).toMatchObject({ actor_user_id: t.admin.id, action: 'soft_deleted' });
  });

  describe('a protected run', () => {
    it.each([
      ['no body', undefined],
      ['an empty body', {}],
      ['a null password', { password: null }],
      ['a wrong password', { password: 'wrong password!' }],
      ['an empty password', { password: '' }],
    ])('refuses the owner with %s: 403', async (_name, body) => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
      await del(id, t.owner.key, body).expect(403, { detail: Details.passwordRequired });
      await expectUntouched(id);
    });

    it('is hidden for the owner with the right password', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
      await del(id, t.owner.key, { password: PASSWORD }).expect(200, { status: 'hidden', research_id: id });
      const record = await findRetentionRecord(t.db, id);
      expect(record!.is_hidden).toBe(true);
    });

    it('is hidden for an administrator without a password', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
      await del(id, t.admin.key).expect(200, { status: 'hidden', research_id: id });
    });
  });

  describe('a run without a retention record (legacy)', () => {
    it('skips the owner and password rules: any authenticated user may hide it', async () => {
      const id = await insertTestRun(t.db, { owner: null, retention: false });
      await del(id, t.other.key).expect(200, { status: 'hidden', research_id: id });
      expect(await findRunById(t.db, id)).toMatchObject({ is_hidden: true, state: 'cancelled' });
      expect(await listAuditRecords(t.db, id)).toEqual([
        expect.objectContaining({ action: 'soft_deleted', actor_user_id: t.other.id }),
      ]);
    });

    it('skips the owner rule even when the run row names an owner', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, retention: false });
      await del(id, t.other.key).expect(200);
    });
  });

  describe('refuses a body that breaks a field rule with 422 and changes nothing', () => {
    it.each([
      [{ password: 12345678 }, 'password: must be a string'],
      [{ password: 'p'.repeat(257) }, 'password: must be at most 256 characters'],
      [{ password: 'pass\u0000word' }, 'password: must not contain NUL characters'],
      [['password'], 'body: must be a JSON object'],
    ])('%j', async (body, detail) => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
      await del(id, t.owner.key, body).expect(422, { detail });
      await expectUntouched(id);
    });

    it('answers 400 for unparseable JSON', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id });
      await request(t.app)
        .delete(`/v1/research/${id}`)
        .set('X-API-Key', t.owner.key)
        .set('Content-Type', 'application/json')
        .send('{password:')
        .expect(400, { detail: 'Malformed JSON body.' });
      await expectUntouched(id);
    });

    it('accepts a 256-character password (and checks it)', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
      await del(id, t.owner.key, { password: 'p'.repeat(256) }).expect(403, { detail: Details.passwordRequired });
    });
  });

  it('hides 20 protected runs deleted in parallel with their passwords (bounded argon2)', async () => {
    const ids = await Promise.all(
      Array.from({ length: 20 }, () => insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash })),
    );
    const responses = await Promise.all(ids.map((id) => del(id, t.owner.key, { password: PASSWORD })));
    expect(responses.map((r) => r.status)).toEqual(ids.map(() => 200));
    for (const id of ids) expect((await findRunById(t.db, id))!.is_hidden).toBe(true);
  });

  it('hides a run once when two deletes race: one 200, one 404, one audit record', async () => {
    const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
    const responses = await Promise.all([del(id, t.owner.key, { password: PASSWORD }), del(id, t.admin.key)]);
    expect(responses.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(await listAuditRecords(t.db, id)).toHaveLength(1);
  });
});
