import argon2 from 'argon2';
import request from 'supertest';
import { Details } from '@research/core';
import { findRetentionRecord } from '@research/database';
import { NOT_A_UUID, OTHER_PASSWORD, PASSWORD, UNKNOWN_ID, buildTestApp, insertTestRun, type TestApp } from './support';

describe('deletion protection', () => {
  let t: TestApp;
  let hash: string;
  beforeAll(async () => {
    t = await buildTestApp('protect');
    hash = await t.passwords.hash(PASSWORD);
  });
  afterAll(() => t.close());

  const put = (id: string, key: string, body?: unknown) => {
    const req = request(t.app)
      .put(`/v1/research/${encodeURIComponent(id)}/deletion-protection`)
      .set('X-API-Key', key);
    return body === undefined ? req : req.send(body as object);
  };
  const remove = (id: string, key: string, body?: unknown) => {
    const req = request(t.app)
      .delete(`/v1/research/${encodeURIComponent(id)}/deletion-protection`)
      .set('X-API-Key', key);
    return body === undefined ? req : req.send(body as object);
  };
  const storedHash = async (id: string) => (await findRetentionRecord(t.db, id))?.password_hash ?? null;

  describe('PUT /v1/research/:id/deletion-protection', () => {
    it('protects the owner’s run with an argon2id hash and returns neither password nor hash', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id });
      const res = await put(id, t.owner.key, { password: PASSWORD }).expect(200);
      expect(res.body).toEqual({ is_deletion_protected: true });
      const stored = await storedHash(id);
      expect(stored).toMatch(/^\$argon2id\$/);
      expect(await argon2.verify(stored!, PASSWORD)).toBe(true);
      expect(res.text).not.toContain(PASSWORD);
      expect(res.text).not.toContain(stored!);
      const status = await request(t.app).get(`/v1/research/${id}`).set('X-API-Key', t.owner.key).expect(200);
      expect(status.body.is_deletion_protected).toBe(true);
      expect(status.text).not.toContain('argon2');
    });

    it('needs the password afterwards to delete the run', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id });
      await put(id, t.owner.key, { password: PASSWORD }).expect(200);
      await request(t.app)
        .delete(`/v1/research/${id}`)
        .set('X-API-Key', t.owner.key)
        .expect(403, { detail: Details.passwordRequired });
      await request(t.app)
        .delete(`/v1/research/${id}`)
        .set('X-API-Key', t.owner.key)
        .send({ password: PASSWORD })
        .expect(200);
    });

    it.each([
      ['an unknown id', () => UNKNOWN_ID],
      ['a malformed id', () => NOT_A_UUID],
    ])('answers 404 for %s', async (_name, id) => {
      await put(id(), t.owner.key, { password: PASSWORD }).expect(404, { detail: Details.runNotFound(id()) });
    });

    it('answers 404 for a hidden run', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, hidden: true, state: 'cancelled' });
      await put(id, t.owner.key, { password: PASSWORD }).expect(404, { detail: Details.runNotFound(id) });
    });

    it('refuses another user with 403 and stores nothing', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id });
      await put(id, t.other.key, { password: PASSWORD }).expect(403, { detail: Details.notOwner });
      expect(await storedHash(id)).toBeNull();
    });

    it("lets an administrator protect another user's run", async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id });
      await put(id, t.admin.key, { password: PASSWORD }).expect(200, { is_deletion_protected: true });
      expect(await storedHash(id)).not.toBeNull();
    });

    describe('a run without a retention record (legacy)', () => {
      it('answers 409 to its owner', async () => {
        const id = await insertTestRun(t.db, { owner: t.owner.id, retention: false });
        await put(id, t.owner.key, { password: PASSWORD }).expect(409, { detail: Details.legacyRun });
      });

      it('answers 409 to an administrator', async () => {
        const id = await insertTestRun(t.db, { owner: null, retention: false });
        await put(id, t.admin.key, { password: PASSWORD }).expect(409, { detail: Details.legacyRun });
      });

      it('refuses a non-owner with 403 first (rule 2 before rule 3)', async () => {
        const id = await insertTestRun(t.db, { owner: null, retention: false });
        await put(id, t.other.key, { password: PASSWORD }).expect(403, { detail: Details.notOwner });
      });
    });

    describe('an already protected run', () => {
      it.each([
        ['no current_password', { password: OTHER_PASSWORD }],
        ['a null current_password', { password: OTHER_PASSWORD, current_password: null }],
        ['a wrong current_password', { password: OTHER_PASSWORD, current_password: 'not the password' }],
      ])('refuses the owner with %s: 403, protection unchanged', async (_name, body) => {
        const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
        await put(id, t.owner.key, body).expect(403, { detail: Details.currentPasswordRequired });
        expect(await storedHash(id)).toBe(hash);
      });

      it('replaces the password for the owner with the current one', async () => {
        const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
        await put(id, t.owner.key, { password: OTHER_PASSWORD, current_password: PASSWORD }).expect(200, {
          is_deletion_protected: true,
        });
        const stored = await storedHash(id);
        expect(await argon2.verify(stored!, OTHER_PASSWORD)).toBe(true);
        expect(await argon2.verify(stored!, PASSWORD)).toBe(false);
      });

      it('replaces the password for an administrator without the current one', async () => {
        const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
        await put(id, t.admin.key, { password: OTHER_PASSWORD }).expect(200, { is_deletion_protected: true });
        expect(await argon2.verify((await storedHash(id))!, OTHER_PASSWORD)).toBe(true);
      });
    });

    it('counts the 8-character minimum in Unicode characters', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id });
      await put(id, t.owner.key, { password: '🔑'.repeat(4) }).expect(422, {
        detail: 'password: must be 8 to 256 characters',
      });
      await put(id, t.owner.key, { password: '🔑'.repeat(8) }).expect(200);
    });

    it('accepts a password of exactly 256 characters', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id });
      await put(id, t.owner.key, { password: 'x'.repeat(256) }).expect(200);
    });

    describe('refuses a body that breaks a field rule with 422 and stores nothing', () => {
      it.each([
        [undefined, 'body: Required'],
        [{}, 'password: Required'],
        [{ password: null }, 'password: must be a string'],
        [{ password: 12345678 }, 'password: must be a string'],
        [{ password: 'short' }, 'password: must be 8 to 256 characters'],
        [{ password: 'x'.repeat(257) }, 'password: must be 8 to 256 characters'],
        [{ password: 'long enough\u0000' }, 'password: must not contain NUL characters'],
        [{ password: PASSWORD, current_password: 5 }, 'current_password: must be a string'],
        [{ password: PASSWORD, current_password: 'c'.repeat(257) }, 'current_password: must be at most 256 characters'],
        [{ password: PASSWORD, current_password: 'a\u0000' }, 'current_password: must not contain NUL characters'],
        ['not an object', 'body: must be a JSON object'],
      ])('%j', async (body, detail) => {
        const id = await insertTestRun(t.db, { owner: t.owner.id });
        const req = put(id, t.owner.key);
        await (
          body === undefined
            ? req
            : typeof body === 'string'
              ? req.set('Content-Type', 'application/json').send(JSON.stringify(body))
              : req.send(body)
        ).expect(422, { detail });
        expect(await storedHash(id)).toBeNull();
      });
    });
  });

  describe('DELETE /v1/research/:id/deletion-protection', () => {
    it('removes the protection for the owner with the password', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
      await remove(id, t.owner.key, { password: PASSWORD }).expect(200, { is_deletion_protected: false });
      expect(await storedHash(id)).toBeNull();
      await request(t.app).delete(`/v1/research/${id}`).set('X-API-Key', t.owner.key).expect(200);
    });

    it('removes the protection for an administrator without the password', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
      await remove(id, t.admin.key, {}).expect(200, { is_deletion_protected: false });
      expect(await storedHash(id)).toBeNull();
    });

    it.each([
      ['a missing password', {}],
      ['a null password', { password: null }],
      ['a wrong password', { password: 'definitely wrong' }],
    ])('refuses the owner with %s: 403, protection kept', async (_name, body) => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
      await remove(id, t.owner.key, body).expect(403, { detail: Details.passwordRequired });
      expect(await storedHash(id)).toBe(hash);
    });

    it('answers 200 false and changes nothing for a run that is not protected', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id });
      const before = await findRetentionRecord(t.db, id);
      await remove(id, t.owner.key, {}).expect(200, { is_deletion_protected: false });
      expect(await findRetentionRecord(t.db, id)).toEqual(before);
    });

    it('answers 200 false for a legacy run of the caller', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, retention: false });
      await remove(id, t.owner.key, { password: null }).expect(200, { is_deletion_protected: false });
      expect(await findRetentionRecord(t.db, id)).toBeUndefined();
    });

    it('refuses another user with 403, protected or not', async () => {
      const plain = await insertTestRun(t.db, { owner: t.owner.id });
      const locked = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
      await remove(plain, t.other.key, {}).expect(403, { detail: Details.notOwner });
      await remove(locked, t.other.key, { password: PASSWORD }).expect(403, { detail: Details.notOwner });
      expect(await storedHash(locked)).toBe(hash);
    });

    it.each([
      ['an unknown id', () => UNKNOWN_ID],
      ['a malformed id', () => NOT_A_UUID],
    ])('answers 404 for %s', async (_name, id) => {
      await remove(id(), t.owner.key, {}).expect(404, { detail: Details.runNotFound(id()) });
    });

    it('answers 404 for a hidden run', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, hidden: true, passwordHash: hash });
      await remove(id, t.admin.key, {}).expect(404, { detail: Details.runNotFound(id) });
    });

    describe('refuses a body that breaks a field rule with 422 and changes nothing', () => {
      it.each([
        [undefined, 'body: Required'],
        [{ password: 42 }, 'password: must be a string'],
        [{ password: 'p'.repeat(257) }, 'password: must be at most 256 characters'],
        [{ password: '\u0000' }, 'password: must not contain NUL characters'],
      ])('%j', async (body, detail) => {
        const id = await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash });
        await remove(id, t.owner.key, body).expect(422, { detail });
        expect(await storedHash(id)).toBe(hash);
      });
    });
  });
});
