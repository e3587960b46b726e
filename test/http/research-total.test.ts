import crypto from 'node:crypto';
import { sql } from 'kysely';
import request from 'supertest';
import { countVisibleRuns, insertRetentionRecord, insertRun } from '@research/database';
import { buildTestApp, insertTestRun, type TestApp } from './support';

// `total` of GET /v1/research comes from a counter kept by triggers; it must equal a count of the
// non-hidden rows after every kind of write, through the API or straight into the table.
describe('GET /v1/research total', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('total');
  });
  afterAll(() => t.close());

  async function countedRows(): Promise<number> {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from research_runs where not is_hidden`.execute(
      t.db,
    );
    return rows[0]!.n;
  }

  async function listedTotal(): Promise<number> {
    const res = await request(t.app).get('/v1/research?limit=1').set('X-API-Key', t.owner.key).expect(200);
    return res.body.total as number;
  }

  async function expectTotal(expected: number): Promise<void> {
    expect(await countedRows()).toBe(expected);
    expect(await listedTotal()).toBe(expected);
  }

  it('stays exact through create, soft delete, purge and direct writes', async () => {
    await expectTotal(0);

    // Created through the API.
    const created: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await request(t.app)
        .post('/v1/research')
        .set('X-API-Key', t.owner.key)
        .send({ query: `Zählerfrage ${i}` })
        .expect(200);
      created.push(res.body.research_id as string);
    }
    await expectTotal(3);

    // Soft delete: the run leaves the list; deleting it again changes nothing.
    await request(t.app).delete(`/v1/research/${created[0]}`).set('X-API-Key', t.owner.key).expect(200);
    await expectTotal(2);
    await request(t.app).delete(`/v1/research/${created[0]}`).set('X-API-Key', t.owner.key).expect(404);
    await expectTotal(2);

    // Purge of the hidden run: it was not counted, so the total stays.
    await request(t.app).delete(`/v1/admin/research/${created[0]}`).set('X-API-Key', t.admin.key).expect(200);
    await expectTotal(2);

    // Direct inserts: one visible, one hidden, and a set-based insert of 1,000 rows (every fourth hidden).
    await insertTestRun(t.db, { owner: t.owner.id });
    await insertTestRun(t.db, { owner: t.owner.id, hidden: true, state: 'cancelled' });
    await sql`
      insert into research_runs (id, query, language, depth, budget, state, is_hidden)
      select gen_random_uuid(), 'bulk ' || g, 'de', 'quick', '{}'::jsonb, 'created', g % 4 = 0
      from generate_series(1, 1000) g`.execute(t.db);
    await expectTotal(2 + 1 + 750);

    // Updates that do not hide (the workers' writes) leave it; hiding and un-hiding in bulk move it.
    await sql`update research_runs set state = 'searching', updated_at = now()`.execute(t.db);
    await expectTotal(753);
    await sql`update research_runs set is_hidden = true where query like 'bulk %' and not is_hidden`.execute(t.db);
    await expectTotal(3);
    await sql`update research_runs set is_hidden = false where query like 'bulk %'`.execute(t.db);
    await expectTotal(1003);
    await sql`update research_runs set is_hidden = is_hidden`.execute(t.db);
    await expectTotal(1003);

    // Direct deletes of visible and hidden rows alike.
    await sql`delete from research_runs where query like 'bulk %' and query < 'bulk 5'`.execute(t.db);
    await expectTotal(await countedRows());
    await sql`delete from research_runs where query like 'bulk %'`.execute(t.db);
    await expectTotal(3);
  });

  it('is exact inside a transaction and after a rollback', async () => {
    const before = await countVisibleRuns(t.db);
    await expect(
      t.db.transaction().execute(async (trx) => {
        const id = crypto.randomUUID();
        await insertRun(trx, { id, query: 'in tx', language: 'de', depth: 'quick', budget: '{}', state: 'created' });
        await insertRetentionRecord(trx, { research_id: id, owner_user_id: t.owner.id, query: 'in tx' });
        expect(await countVisibleRuns(trx)).toBe(before + 1);
        // Other connections do not see the uncommitted run.
        expect(await countVisibleRuns(t.db)).toBe(before);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await countVisibleRuns(t.db)).toBe(before);
    expect(await countedRows()).toBe(before);
  });

  it('is exact after concurrent inserts and soft deletes', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => insertTestRun(t.db, { owner: t.owner.id })));
    await Promise.all(
      ids
        .slice(0, 10)
        .map((id) => request(t.app).delete(`/v1/research/${id}`).set('X-API-Key', t.owner.key).expect(200)),
    );
    await expectTotal(await countedRows());
  });

  it('is zero after the table is truncated', async () => {
    await sql`truncate research_runs cascade`.execute(t.db);
    await expectTotal(0);
    await insertTestRun(t.db, { owner: t.owner.id });
    await expectTotal(1);
  });
});
