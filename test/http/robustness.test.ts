import request from 'supertest';
import { PASSWORD, buildTestApp, insertTestRun, type TestApp } from './support';

// A small deterministic generator: the same odd inputs on every run, so a failure is reproducible.
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
  return { next, pick };
}

const ODD_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff\ud800',
  '🙂'.repeat(3000),
  'x'.repeat(2001),
  '%00',
  '../../etc/passwd',
  "'; drop table research_runs; --",
  '<script>alert(1)</script>',
  'quick',
  'deep',
  'null',
  '\\u0000',
  'ä'.repeat(300),
];

const ODD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1e308,
  -0,
  3.14,
  Number.MAX_SAFE_INTEGER + 2,
  [],
  {},
  [null],
  [[['deep']]],
  { nested: { deeper: [1, 2, 3] } },
  ...ODD_STRINGS,
  Array.from({ length: 25 }, (_, i) => `q${i}`),
  ['ok', '\u0000'],
];

/** A query-string value; a lone surrogate (not encodable) is sent as the invalid UTF-8 it would be. */
function param(value: unknown): string {
  try {
    return encodeURIComponent(String(value).slice(0, 200));
  } catch {
    return '%ED%A0%80';
  }
}

const ODD_IDS = [
  'x',
  '%00',
  '%E0%A4%A',
  '%25',
  '..',
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF',
  '{00000000-0000-4000-8000-000000000000}',
  '00000000000040008000000000000000',
  '00000000-0000-4000-8000-0000000000000',
  'a'.repeat(5000),
  '%F0%9F%99%82',
  '1%27%20or%20%271%27%3D%271',
  '%20',
];

describe('client input never causes a 5xx', () => {
  let t: TestApp;
  let runIds: string[];
  beforeAll(async () => {
    t = await buildTestApp('fuzz');
    const hash = await t.passwords.hash(PASSWORD);
    runIds = [
      await insertTestRun(t.db, { owner: t.owner.id }),
      await insertTestRun(t.db, { owner: t.owner.id, passwordHash: hash }),
      await insertTestRun(t.db, { owner: null, retention: false }),
      await insertTestRun(t.db, { owner: t.owner.id, hidden: true }),
    ];
  });
  afterAll(() => t.close());

  function randomBody(g: ReturnType<typeof generator>): unknown {
    const fields = [
      'query',
      'language',
      'depth',
      'extra_queries',
      'password',
      'current_password',
      '__proto__',
      'constructor',
    ];
    const r = g.next();
    if (r < 0.15) return g.pick(ODD_VALUES);
    const body: Record<string, unknown> = {};
    const n = 1 + Math.floor(g.next() * 4);
    for (let i = 0; i < n; i++) body[g.pick(fields)] = g.pick(ODD_VALUES);
    if (g.next() < 0.5) body.query = g.pick(ODD_STRINGS);
    if (g.next() < 0.3) body.password = g.pick([PASSWORD, 'short', 'long enough password', null]);
    return body;
  }

  it('answers every odd body, id and parameter with a 2xx or a 4xx {"detail": …}', async () => {
    const g = generator(20261121);
    const seen = new Map<number, number>();
    for (let i = 0; i < 400; i++) {
      const id = g.next() < 0.5 ? g.pick(ODD_IDS) : g.pick(runIds);
      const body = randomBody(g);
      const raw = g.next() < 0.1;
      const key = g.pick([t.owner.key, t.other.key, t.admin.key]);
      const route = g.pick([
        () => request(t.app).post('/v1/research'),
        // Values are cut to 200 characters: a longer URL is refused by Node's HTTP parser (431) before the app.
        () => request(t.app).get(`/v1/research?limit=${param(g.pick(ODD_VALUES))}&offset=${param(g.pick(ODD_VALUES))}`),
        () => request(t.app).get(`/v1/research/${id}`),
        () =>
          request(t.app).get(
            `/v1/research/${id}/${g.pick(['status', 'sources', 'claims', 'evidence', 'plan', 'report'])}`,
          ),
        () => request(t.app).delete(`/v1/research/${id}`),
        () => request(t.app).put(`/v1/research/${id}/deletion-protection`),
        () => request(t.app).delete(`/v1/research/${id}/deletion-protection`),
        () => request(t.app).delete(`/v1/admin/research/${id}`),
      ]);
      let req = route().set('X-API-Key', key);
      if (raw) {
        req = req.set(
          'Content-Type',
          g.pick([
            'application/json',
            'application/json; charset=latin1',
            'application/merge-patch+json',
            'text/plain',
          ]),
        );
        req = req.send(g.pick(['{', '{"query":', '\u0000', 'nul\u0000l', '['.repeat(5000), '{"a":1}{"b":2}', '']));
      } else if (body !== undefined) {
        req = req.set('Content-Type', 'application/json').send(JSON.stringify(body));
      }
      const res = await req;
      seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
      if (res.status >= 500 || (res.status >= 400 && typeof res.body?.detail !== 'string')) {
        throw new Error(
          `request ${i} (${req.method} ${req.url.slice(0, 200)}) answered ${res.status}: ${res.text.slice(0, 300)}`,
        );
      }
    }
    // The loop really reached the handlers, not only the validators.
    expect(seen.get(200)).toBeGreaterThan(20);
    expect(seen.get(404)).toBeGreaterThan(20);
    expect(seen.get(422)).toBeGreaterThan(20);
  });

  it('answers a deeply nested JSON body with a 4xx', async () => {
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const res = await request(t.app)
      .post('/v1/research')
      .set('X-API-Key', t.owner.key)
      .set('Content-Type', 'application/json')
      .send(deep);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });

  it('answers an unsupported content encoding and a wrong charset with a 4xx', async () => {
    const enc = await request(t.app)
      .post('/v1/research')
      .set('X-API-Key', t.owner.key)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'bogus')
      .send('{"query":"x"}');
    expect(enc.status).toBe(415);
    expect(typeof enc.body.detail).toBe('string');
    const charset = await request(t.app)
      .post('/v1/research')
      .set('X-API-Key', t.owner.key)
      .set('Content-Type', 'application/json; charset=klingon')
      .send('{"query":"x"}');
    expect(charset.status).toBe(415);
  });

  it('answers a malformed percent-encoding in the path with a 4xx', async () => {
    const res = await request(t.app).get('/v1/research/%E0%A4%A').set('X-API-Key', t.owner.key);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  });
});
