import request from 'supertest';
import { normalizeWhitespace } from '@research/core';
import { startFakeSite, type FakeSite } from '../../crawler/support';
import { NOT_A_UUID, UNKNOWN_ID, insertTestRun } from '../support';
import { buildMountedApp, type MountedTestApp } from './support';

const QUERY = 'Wie stark stieg die Produktivität im Homeoffice?';
const PLAN = {
  query: QUERY,
  language: 'de',
  query_categories: ['quantitative'],
  sub_questions: [QUERY],
  search_queries: [{ query: 'Produktivität Homeoffice', dimension: 'evidence' }],
  counter_evidence_queries: [],
  required_fields: ['Produktivität'],
  search_dimensions: ['evidence'],
  time_sensitivity: 'none',
  confidence: 0.6,
};
const PARAGRAPHS = [
  'Eine Studie aus dem Jahr 2021 ergab, dass die Produktivität im Homeoffice um 13 Prozent stieg.',
  'Laut einer Umfrage von 2022 arbeiteten 40 Prozent der Beschäftigten mindestens einen Tag pro Woche im Homeoffice.',
  'Die Forscher befragten dafür 16.000 Angestellte eines Reiseunternehmens in Shanghai über neun Monate.',
];
const ARTICLE = `<!DOCTYPE html><html lang="de"><head><title>Homeoffice-Studie</title></head><body><main>
<h1>Homeoffice-Studie</h1>${PARAGRAPHS.map((p) => `<p>${p}</p>`).join('\n')}</main></body></html>`;

describe('POST /research/{run_id}/claims with only a url (the page is fetched by the crawler)', () => {
  let site: FakeSite;
  let m: MountedTestApp;
  let runId: string;
  beforeAll(async () => {
    site = await startFakeSite((req, res) => {
      if (req.url === '/robots.txt')
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private');
      if (req.url === '/studie' || req.url === '/private/studie' || req.url === '/zweite')
        return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
      if (req.url === '/alt') return void res.writeHead(301, { location: '/studie' }).end();
      if (req.url === '/bild.png')
        return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(64));
      res.writeHead(404).end();
    });
    // Loopback fakes need CRAWLER_ALLOW_PRIVATE_NETWORKS; metadata addresses stay refused regardless.
    m = await buildMountedApp('mountedclaimsurl', {
      env: { CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true', CRAWLER_TIMEOUT_MS: '3000' },
    });
    runId = await insertTestRun(m.t.db, { owner: m.t.owner.id, state: 'completed', plan: PLAN, query: QUERY });
  });
  afterAll(async () => {
    await m.close();
    await site.close();
  });

  const post = (key: string, id: string, body: object) =>
    request(m.app).post(`/research/${id}/claims`).set('X-API-Key', key).send(body);
  const get = (path: string) => request(m.app).get(path).set('X-API-Key', m.t.other.key);
  const counts = async (id: string) => {
    const [claims, sources] = await Promise.all([
      get(`/v1/research/${id}/claims`).expect(200),
      get(`/v1/research/${id}/sources`).expect(200),
    ]);
    return { claims: claims.body.total as number, sources: sources.body.total as number };
  };

  it('fetches the page, stores it as a source of the run and extracts its claims; /v1 shows both', async () => {
    const res = await post(m.t.owner.key, runId, { url: `${site.origin}/studie` }).expect(200);
    expect(res.body).toMatchObject({
      research_id: runId,
      engine: 'extractive',
      fallbacks: [],
      source_created: true,
    });
    expect(res.body.created).toBeGreaterThan(0);
    expect(site.hitsOf('/studie')).toBe(1);
    const page = normalizeWhitespace(PARAGRAPHS.join(' '));
    for (const claim of res.body.claims) {
      expect(claim.source_id).toBe(res.body.source_id);
      expect(page).toContain(normalizeWhitespace(claim.evidence_span));
    }
    expect(res.body.claims.map((c: { claim_text: string }) => c.claim_text).join(' ')).toContain('13 Prozent');

    const sources = await get(`/v1/research/${runId}/sources`).expect(200);
    expect(sources.body.sources).toContainEqual(
      expect.objectContaining({
        id: res.body.source_id,
        url: `${site.origin}/studie`,
        title: 'Homeoffice-Studie',
        domain: '127.0.0.1',
      }),
    );
    const status = await get(`/v1/research/${runId}`).expect(200);
    expect(status.body).toMatchObject({ claim_count: res.body.total, source_count: sources.body.total });
  });

  it('reads a page the run already has from its stored source (also after a redirect): nothing new', async () => {
    const first = await post(m.t.owner.key, runId, { url: `${site.origin}/studie` }).expect(200);
    const again = await post(m.t.admin.key, runId, { url: `${site.origin}/studie` }).expect(200);
    expect(again.body).toMatchObject({ source_created: false, created: 0, source_id: first.body.source_id });
    expect(site.hitsOf('/studie')).toBe(1);
    // /alt redirects to /studie: fetched (the redirect), then recognised as the stored page.
    const before = await counts(runId);
    const redirected = await post(m.t.owner.key, runId, { url: `${site.origin}/alt` }).expect(200);
    expect(redirected.body).toMatchObject({ source_created: false, created: 0, source_id: first.body.source_id });
    expect(await counts(runId)).toEqual(before);
  });

  it("uses the crawler's page cache for another run, and a given title", async () => {
    const other = await insertTestRun(m.t.db, { owner: m.t.owner.id, state: 'failed', plan: PLAN, query: QUERY });
    const fetched = site.hitsOf('/studie');
    const res = await post(m.t.owner.key, other, { url: `${site.origin}/studie`, title: 'Eigene Überschrift' }).expect(
      200,
    );
    expect(res.body).toMatchObject({ source_created: true });
    expect(res.body.created).toBeGreaterThan(0);
    expect(site.hitsOf('/studie')).toBe(fetched);
    const sources = await get(`/v1/research/${other}/sources`).expect(200);
    expect(sources.body.sources[0]).toMatchObject({ url: `${site.origin}/studie`, title: 'Eigene Überschrift' });
  });

  it.each([
    ['a page robots.txt disallows', () => ({ url: `${site.origin}/private/studie` }), /^url: robots: /],
    [
      'a cloud metadata address',
      () => ({ url: 'http://169.254.169.254/latest/meta-data/' }),
      /^url: blocked_address: /,
    ],
    ['an image', () => ({ url: `${site.origin}/bild.png` }), /^url: \w+: /],
    ['a missing page', () => ({ url: `${site.origin}/fehlt` }), /^url: \w+: /],
    ['an ftp url', () => ({ url: 'ftp://example.org/x' }), /^url: must be an http or https URL$/],
    ['a url that is not one', () => ({ url: 'http://' }), /^url: /],
    ['a number as url', () => ({ url: 42 }), /^url: must be a string$/],
    [
      'an oversized url',
      () => ({ url: `https://example.org/${'x'.repeat(2048)}` }),
      /^url: must be 1 to 2048 characters$/,
    ],
    [
      'both source_id and url',
      () => ({ source_id: 'a', url: `${site.origin}/studie` }),
      /^url: give either source_id or url, not both$/,
    ],
    ['nothing to read', () => ({ title: 'Nur ein Titel' }), /^source_id: give source_id, text with url, or url$/],
  ])('refuses %s with 422 and changes nothing', async (_label, body, detail) => {
    const before = await counts(runId);
    const res = await post(m.t.owner.key, runId, body()).expect(422);
    expect(res.body.detail).toMatch(detail);
    expect(Object.keys(res.body)).toEqual(['detail']);
    expect(await counts(runId)).toEqual(before);
  });

  it('checks the key, owner, hidden and running rules before fetching anything', async () => {
    const running = await insertTestRun(m.t.db, { owner: m.t.owner.id, state: 'fetching', plan: PLAN, query: QUERY });
    const hidden = await insertTestRun(m.t.db, { owner: m.t.owner.id, hidden: true, state: 'cancelled' });
    const body = { url: `${site.origin}/zweite` };
    await request(m.app).post(`/research/${runId}/claims`).send(body).expect(401);
    await post(m.t.other.key, runId, body).expect(403, { detail: 'You may only manage your own research runs.' });
    for (const id of [UNKNOWN_ID, NOT_A_UUID, hidden]) {
      await post(m.t.owner.key, id, body).expect(404, { detail: `Research run ${id} not found` });
    }
    const conflict = await post(m.t.owner.key, running, body).expect(409);
    expect(conflict.body.detail).toContain('still running');
    expect(site.hitsOf('/zweite')).toBe(0);
  });
});
