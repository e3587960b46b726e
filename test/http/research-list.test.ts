import request from 'supertest';
import { buildTestApp, insertRunResults, insertTestRun, type TestApp } from './support';

describe('GET /v1/research', () => {
  let t: TestApp;
  const ids: string[] = []; // oldest first
  let hiddenId: string;
  let protectedId: string;

  beforeAll(async () => {
    t = await buildTestApp('list');
    const base = Date.UTC(2026, 0, 1);
    for (let i = 0; i < 15; i++) {
      const owner = i % 2 === 0 ? t.owner.id : t.other.id;
      ids.push(
        await insertTestRun(t.db, {
          owner,
          createdAt: new Date(base + i * 60_000),
          query: `Frage ${i}`,
          depth: 'quick',
          state: i === 0 ? 'completed' : 'created',
        }),
      );
    }
    await insertRunResults(t.db, ids[0]!, { sources: 3 });
    protectedId = ids[5]!;
    await t.db
      .updateTable('retention_records')
      .set({ password_hash: await t.passwords.hash('some long password') })
      .where('research_id', '=', protectedId)
      .execute();
    hiddenId = await insertTestRun(t.db, {
      owner: t.owner.id,
      createdAt: new Date(base + 3_600_000),
      hidden: true,
      state: 'cancelled',
    });
  });
  afterAll(() => t.close());

  const list = (query = '', key = t.owner.key) => request(t.app).get(`/v1/research${query}`).set('X-API-Key', key);

  it('defaults to limit 10 and offset 0, newest first, and counts non-hidden runs only', async () => {
    const res = await list().expect(200);
    expect(res.body.total).toBe(15);
    expect(res.body.limit).toBe(10);
    expect(res.body.offset).toBe(0);
    expect(res.body.items.map((i: { research_id: string }) => i.research_id)).toEqual([...ids].reverse().slice(0, 10));
    expect(res.text).not.toContain(hiddenId);
  });

  it('returns items with exactly the SPEC 4.3 fields', async () => {
    const res = await list('?limit=100').expect(200);
    const oldest = res.body.items.at(-1);
    expect(oldest).toEqual({
      research_id: ids[0],
      query: 'Frage 0',
      depth: 'quick',
      state: 'completed',
      created_at: '2026-01-01T00:00:00.000Z',
      source_count: 3,
      claim_count: 6,
      is_deletion_protected: false,
      // Extension: the run a follow-up started from.
      parent_id: null,
    });
    expect(
      res.body.items.find((i: { research_id: string }) => i.research_id === protectedId).is_deletion_protected,
    ).toBe(true);
  });

  it('applies offset and limit after ordering', async () => {
    const res = await list('?limit=4&offset=3').expect(200);
    expect(res.body).toMatchObject({ total: 15, limit: 4, offset: 3 });
    expect(res.body.items.map((i: { research_id: string }) => i.research_id)).toEqual([...ids].reverse().slice(3, 7));
  });

  it('returns an empty page past the end', async () => {
    const res = await list('?offset=500').expect(200);
    expect(res.body).toEqual({ total: 15, limit: 10, offset: 500, items: [] });
  });

  it('is not filtered by owner', async () => {
    const a = await list('?limit=100', t.owner.key).expect(200);
    const b = await list('?limit=100', t.other.key).expect(200);
    expect(b.body).toEqual(a.body);
  });

  it('accepts the bounds limit=1, limit=100 and offset=0', async () => {
    expect((await list('?limit=1').expect(200)).body.items).toHaveLength(1);
    expect((await list('?limit=100&offset=0').expect(200)).body.items).toHaveLength(15);
  });

  it.each([
    ['?limit=abc', 'limit: must be an integer'],
    ['?limit=1.5', 'limit: must be an integer'],
    ['?limit=-1', 'limit: must be an integer'],
    ['?limit=0', 'limit: must be at least 1'],
    ['?limit=101', 'limit: must be at most 100'],
    ['?limit=', 'limit: must be an integer'],
    ['?limit=1e2', 'limit: must be an integer'],
    ['?limit=%201', 'limit: must be an integer'],
    ['?limit=1&limit=2', 'limit: must be a single integer'],
    ['?offset=-1', 'offset: must be an integer'],
    ['?offset=x', 'offset: must be an integer'],
    ['?offset=99999999999999999999', 'offset: must be at most 9007199254740991'],
    ['?offset=1&offset=2', 'offset: must be a single integer'],
  ])('refuses %s with 422', async (query, detail) => {
    await list(query).expect(422, { detail });
  });

  it('ignores unknown query parameters', async () => {
    expect((await list('?page=3&sort=asc').expect(200)).body.limit).toBe(10);
  });
});
