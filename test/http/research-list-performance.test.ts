import { sql } from 'kysely';
import request from 'supertest';
import { buildTestApp, type TestApp } from './support';

describe('GET /v1/research with 100,000 runs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('listperf');
    // Set-based insert: 100,000 runs (every tenth hidden) with retention records, in about a second.
    await sql`
      insert into research_runs (id, query, language, depth, budget, state, created_at, owner_user_id, is_hidden)
      select gen_random_uuid(), 'Frage ' || g, 'de', 'quick', '{}'::jsonb,
             case when g % 3 = 0 then 'completed' else 'created' end,
             timestamptz '2026-01-01' + g * interval '1 second', ${t.owner.id}::uuid, g % 10 = 0
      from generate_series(1, 100000) g`.execute(t.db);
    await sql`insert into retention_records (research_id, owner_user_id, query, is_hidden)
              select id, owner_user_id, query, is_hidden from research_runs`.execute(t.db);
    await sql`analyze`.execute(t.db);
  }, 60_000);
  afterAll(() => t.close());

  it('counts and pages quickly (first page, a deep page, and the total)', async () => {
    const get = (q: string) => request(t.app).get(`/v1/research${q}`).set('X-API-Key', t.owner.key).expect(200);
    await get('?limit=1'); // warm the pool
    const started = Date.now();
    const first = await get('?limit=100');
    const firstMs = Date.now() - started;
    expect(first.body.total).toBe(90_000);
    expect(first.body.items).toHaveLength(100);
    expect(first.body.items[0].query).toBe('Frage 99999');
    expect(firstMs).toBeLessThan(500);

    const deep = await get('?limit=10&offset=89995');
    expect(deep.body.items).toHaveLength(5);
    expect(deep.body.items.at(-1).query).toBe('Frage 1');
  });

  it('uses the partial index for the page query', async () => {
    const plan = await sql<{ 'QUERY PLAN': string }>`
      explain select research_runs.id from research_runs
      left join retention_records on retention_records.research_id = research_runs.id
      where research_runs.is_hidden = false
      order by research_runs.created_at desc, research_runs.id desc limit 10 offset 0`.execute(t.db);
    expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain('research_runs_visible_created_idx');
  });
});
