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

describe('administrator endpoints', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('admin');
  });
  afterAll(() => t.close());

  describe('GET /v1/admin/research/deleted', () => {
    it('lists hidden runs newest hidden first with exactly the SPEC 4.12 fields', async () => {
      expect(
        (await request(t.app).get('/v1/admin/research/deleted').set('X-API-Key', t.admin.key).expect(200)).body,
      ).toEqual([]);

      const first = await insertTestRun(t.db, { owner: t.owner.id, query: 'erste' });
      const second = await insertTestRun(t.db, {
        owner: t.other.id,
        query: 'zweite',
        passwordHash: await t.passwords.hash(PASSWORD),
      });
      const visible = await insertTestRun(t.db, { owner: t.owner.id, query: 'sichtbar' });
      await request(t.app).delete(`/v1/research/${first}`).set('X-API-Key', t.owner.key).expect(200);
      await new Promise((r) => setTimeout(r, 20));
      await request(t.app)
        .delete(`/v1/research/${second}`)
        .set('X-API-Key', t.other.key)
        .send({ password: PASSWORD })
        .expect(200);

      const res = await request(t.app).get('/v1/admin/research/deleted').set('X-API-Key', t.admin.key).expect(200);
      expect(res.body).toEqual([
        {
          research_id: second,
          query: 'zweite',
          hidden_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
          is_deletion_protected: true,
        },
        { research_id: first, query: 'erste', hidden_at: expect.stringMatching(/Z$/), is_deletion_protected: false },
      ]);
      expect(Date.parse(res.body[0].hidden_at)).toBeGreaterThan(Date.parse(res.body[1].hidden_at));
      expect(res.text).not.toContain(visible);
      expect(res.text).not.toContain('argon2');
    });

    it.each([
      ['the owner', () => t.owner.key],
      ['another user', () => t.other.key],
    ])('refuses %s with 403', async (_name, key) => {
      await request(t.app)
        .get('/v1/admin/research/deleted')
        .set('X-API-Key', key())
        .expect(403, { detail: Details.adminRequired });
    });
  });

  describe('DELETE /v1/admin/research/:id', () => {
    it('purges a hidden run with all its records and writes the purged audit record', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, state: 'completed' });
      await insertRunResults(t.db, id, { sources: 3, report: { summary: 'x' } });
      await request(t.app).delete(`/v1/research/${id}`).set('X-API-Key', t.owner.key).expect(200);

      const res = await request(t.app).delete(`/v1/admin/research/${id}`).set('X-API-Key', t.admin.key).expect(200);
      expect(res.body).toEqual({ status: 'purged', research_id: id });

      expect(await findRunById(t.db, id)).toBeUndefined();
      expect(await findRetentionRecord(t.db, id)).toBeUndefined();
      for (const table of ['sources', 'claims', 'evidence_scores', 'reports', 'search_results'] as const) {
        const row = await t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('run_id', '=', id)
          .executeTakeFirstOrThrow();
        expect([table, Number(row.n)]).toEqual([table, 0]);
      }
      const audit = await listAuditRecords(t.db, id);
      expect(audit.map((a) => [a.action, a.actor_user_id])).toEqual([
        ['soft_deleted', t.owner.id],
        ['purged', t.admin.id],
      ]);
      const list = await request(t.app).get('/v1/admin/research/deleted').set('X-API-Key', t.admin.key).expect(200);
      expect(list.text).not.toContain(id);
    });

    it('answers 404 when purging the same run twice', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, hidden: true, state: 'cancelled' });
      await request(t.app).delete(`/v1/admin/research/${id}`).set('X-API-Key', t.admin.key).expect(200);
      await request(t.app)
        .delete(`/v1/admin/research/${id}`)
        .set('X-API-Key', t.admin.key)
        .expect(404, { detail: Details.noHiddenRun });
      expect((await listAuditRecords(t.db, id)).filter((a) => a.action === 'purged')).toHaveLength(1);
    });

    it('refuses to purge a run that is not hidden (404) and keeps it', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id });
      await request(t.app)
        .delete(`/v1/admin/research/${id}`)
        .set('X-API-Key', t.admin.key)
        .expect(404, { detail: Details.noHiddenRun });
      expect(await findRunById(t.db, id)).toBeDefined();
      expect(await listAuditRecords(t.db, id)).toEqual([]);
    });

    it('refuses to purge a hidden run without a retention record (404)', async () => {
      const id = await insertTestRun(t.db, { owner: null, retention: false });
      await request(t.app).delete(`/v1/research/${id}`).set('X-API-Key', t.other.key).expect(200);
      await request(t.app)
        .delete(`/v1/admin/research/${id}`)
        .set('X-API-Key', t.admin.key)
        .expect(404, { detail: Details.noHiddenRun });
      expect(await findRunById(t.db, id)).toBeDefined();
    });

    it.each([UNKNOWN_ID, NOT_A_UUID, 'x'.repeat(300)])('answers 404 for the id %s', async (id) => {
      await request(t.app)
        .delete(`/v1/admin/research/${id}`)
        .set('X-API-Key', t.admin.key)
        .expect(404, { detail: Details.noHiddenRun });
    });

    it('refuses a non-administrator with 403 before anything else', async () => {
      const id = await insertTestRun(t.db, { owner: t.owner.id, hidden: true });
      await request(t.app)
        .delete(`/v1/admin/research/${id}`)
        .set('X-API-Key', t.owner.key)
        .expect(403, { detail: Details.adminRequired });
      await request(t.app)
        .delete(`/v1/admin/research/${UNKNOWN_ID}`)
        .set('X-API-Key', t.other.key)
        .expect(403, { detail: Details.adminRequired });
      expect(await findRunById(t.db, id)).toBeDefined();
    });
  });
});
