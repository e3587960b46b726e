import request from 'supertest';
import { DEPTH_BUDGETS, Details } from '@research/core';
import { findRunById } from '@research/database';
import { buildTestApp, type TestApp } from './support';

describe('POST /v1/research with source controls', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('source-controls');
  });
  afterAll(() => t.close());

  const post = (body: object) => request(t.app).post('/v1/research').set('X-API-Key', t.owner.key).send(body);
  const runCount = async () =>
    Number(
      (await t.db
        .selectFrom('research_runs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst())!.n,
    );

  it('stores the controls on the run, lowers its max_sources, and answers with the SPEC shape', async () => {
    const res = await post({
      query: 'Solarstrom in Deutschland',
      depth: 'quick',
      include_domains: ['Destatis.de', 'europa.eu', 'münchen.de', '127.0.0.2', '[2001:DB8::1]', 'destatis.de'],
      exclude_domains: ['blog.europa.eu'],
      published_after: '2024-02-29',
      max_sources: 7,
    }).expect(200);
    expect(Object.keys(res.body).sort()).toEqual(['depth', 'query', 'research_id', 'state', 'status']);
    const run = await findRunById(t.db, res.body.research_id);
    expect(run!.source_controls).toEqual({
      include_domains: ['destatis.de', 'europa.eu', 'xn--mnchen-3ya.de', '127.0.0.2', '2001:db8::1'],
      exclude_domains: ['blog.europa.eu'],
      published_after: '2024-02-29',
      max_sources: 7,
    });
    expect(run!.budget).toEqual({ ...DEPTH_BUDGETS.quick, max_sources: 7 });
  });

  it('stores no controls and the depth budget for a run without them (null fields count as absent)', async () => {
    const res = await post({ query: 'Solar', include_domains: null, published_after: null }).expect(200);
    const run = await findRunById(t.db, res.body.research_id);
    expect(run!.source_controls).toBeNull();
    expect(run!.budget).toEqual(DEPTH_BUDGETS.normal);
  });

  it('accepts max_sources equal to the depth budget', async () => {
    const res = await post({ query: 'Solar', depth: 'deep', max_sources: 60 }).expect(200);
    expect((await findRunById(t.db, res.body.research_id))!.budget).toMatchObject({ max_sources: 60 });
  });

  const tooMany = Array.from({ length: 51 }, (_, i) => `host${i}.example.org`);
  it.each([
    [{ include_domains: '51 hosts' }, 'include_domains: must have at most 50 items'],
    [{ exclude_domains: '51 hosts' }, 'exclude_domains: must have at most 50 items'],
    [{ include_domains: 'example.com' }, 'include_domains: must be a'],
    [{ include_domains: ['https://example.com'] }, 'include_domains.0: must be a host name or IP address'],
    [{ include_domains: ['ok.org', 'example.com/path'] }, 'include_domains.1: must be a host name or IP address'],
    [{ exclude_domains: ['example.com:8080'] }, 'exclude_domains.0: must be a host name or IP address'],
    [{ exclude_domains: ['*.example.com'] }, 'exclude_domains.0: must be a host name or IP address'],
    [{ exclude_domains: ['-bad.example.com'] }, 'exclude_domains.0: must be a host name or IP address'],
    [{ exclude_domains: ['a..b'] }, 'exclude_domains.0: must be a host name or IP address'],
    [{ exclude_domains: ['1.2.3'] }, 'exclude_domains.0: must be a host name or IP address'],
    [{ exclude_domains: [42] }, 'exclude_domains.0: must be a list of host names or IP addresses'],
    [
      { include_domains: ['example.com'], exclude_domains: ['Example.com'] },
      'exclude_domains: example.com is also in include_domains',
    ],
    [{ published_after: '2026-02-30' }, 'published_after: must be a date YYYY-MM-DD'],
    [{ published_after: '2026-2-3' }, 'published_after: must be a date YYYY-MM-DD'],
    [{ published_after: '2026-01-01T00:00:00Z' }, 'published_after: must be a date YYYY-MM-DD'],
    [{ published_after: 20260101 }, 'published_after: must be a date YYYY-MM-DD'],
    [{ max_sources: 0 }, 'max_sources: must be at least 1'],
    [{ max_sources: 2.5 }, 'max_sources: must be an integer'],
    [{ max_sources: '5' }, 'max_sources: must be an integer'],
    [{ max_sources: 16, depth: 'quick' }, 'max_sources: must be at most 15 for depth quick'],
    [{ max_sources: 31 }, 'max_sources: must be at most 30 for depth normal'],
  ])('refuses %j with 422 naming the field, and stores nothing', async (fields, detail) => {
    const before = await runCount();
    // '51 hosts' stands for a list of 51 host names (the test's title stays short).
    const body = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v === '51 hosts' ? tooMany : v]));
    const res = await post({ query: 'Solar', ...body }).expect(422);
    expect(res.body.detail).toContain(detail);
    expect(await runCount()).toBe(before);
  });

  it("answers an unknown depth's 400 before max_sources' bound (which depends on the depth)", async () => {
    const res = await post({ query: 'Solar', depth: 'abyssal', max_sources: 1000 }).expect(400);
    expect(res.body.detail).toBe(Details.invalidDepth('abyssal'));
  });

  it("answers a control's own rule with 422 before the depth's 400, like SPEC's other fields", async () => {
    const res = await post({ query: 'Solar', depth: 'abyssal', max_sources: 0 }).expect(422);
    expect(res.body.detail).toBe('max_sources: must be at least 1');
  });
});
