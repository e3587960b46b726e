import request from 'supertest';
import type { ReportBody } from '@research/core';
import { createMetrics, createSilentLogger } from '@research/observability';
import { createCollectionLibrary, createResearchRunner } from '@research/pipeline';
import type { ResearchJobContext } from '@research/queue';
import { buildTestApp, type TestApp, type TestUser } from '../http/support';
import { createLiveWeb, type LiveWeb } from '../support/engine';
import { startFakeWeb, type FakeWeb } from '../fakes/fake-web';
import { testConfig } from '../worker/worker-fixtures';
import { PLANTED_QUERY, plantedContradictionPages } from './engine-support';

// Runs created through POST /v1/research with `collection_ids`, run by the pipeline over a loopback web
// searched through the real SearxNG provider, and over collections uploaded through the API: their documents
// are searched beside the web (or instead of it), read from their stored text, cited like web pages, and stay
// verifiable once the collection is deleted.

/** A document on the question that no web page holds (written for these tests). */
const HARBOUR_NOTE =
  'Harbour survey notes\n\n' +
  'The harbour survey of 2024 found that human activities emit about 37 billion tons of carbon dioxide per year, ' +
  'while volcanoes emit less than one billion tons of carbon dioxide per year.\n\n' +
  'The survey team compared the emissions of ships in the harbour with the emissions of the volcano nearby.';

function job(): ResearchJobContext {
  return { id: 'job', attempt: 1, maxAttempts: 3, afterOutage: false, signal: new AbortController().signal };
}

interface Source {
  id: string;
  url: string;
  domain: string;
  content_sha256: string;
}

describe('research runs with collections', () => {
  let t: TestApp;
  let web: FakeWeb;
  let live: LiveWeb;
  let collectionId: string;
  let documentId: string;
  let documentSha: string;

  const as = (user: TestUser) => ({
    get: (path: string) => request(t.app).get(path).set('X-API-Key', user.key),
    post: (path: string, body: object) => request(t.app).post(path).set('X-API-Key', user.key).send(body),
  });

  beforeAll(async () => {
    t = await buildTestApp('collection-runs');
    web = await startFakeWeb({ pages: plantedContradictionPages() });
    live = createLiveWeb(
      testConfig({
        SEARCH_PROVIDER: 'searxng',
        SEARXNG_URL: web.searchUrl.replace(/\/search$/, ''),
        CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
        CRAWLER_TIMEOUT_MS: '5000',
      }),
    );
    collectionId = (await as(t.owner).post('/v1/collections', { name: 'Surveys', language: 'en' }).expect(201)).body
      .collection_id;
    const uploaded = await request(t.app)
      .post(`/v1/collections/${collectionId}/documents`)
      .set('X-API-Key', t.owner.key)
      .attach('file', Buffer.from(HARBOUR_NOTE), 'harbour-survey.txt')
      .expect(201);
    documentId = uploaded.body.document_id;
    documentSha = uploaded.body.content_sha256;
  });
  afterAll(async () => {
    await live?.close();
    await web?.close();
    await t?.close();
  });

  /** Creates a run through the API with `fields`, runs it to its end, and reads what a client sees. */
  async function research(fields: object) {
    const created = await as(t.owner)
      .post('/v1/research', { query: PLANTED_QUERY, language: 'en', depth: 'quick', ...fields })
      .expect(200);
    const id = created.body.research_id as string;
    const before = { queries: web.requests.queries.length, pages: web.requests.pages };
    const runner = createResearchRunner({
      db: t.db,
      services: { ...live.services, llm: null, collections: createCollectionLibrary(t.db) },
      metrics: createMetrics({ defaultMetrics: false }),
      logger: createSilentLogger(),
      pollIntervalMs: 200,
    });
    await runner({ research_id: id }, job());
    const read = (path: string) => as(t.owner).get(`/v1/research/${id}${path}`).expect(200);
    const status = (await read('')).body as { state: string };
    const sources = (await read('/sources')).body.sources as Source[];
    const report = (await read('/report')).body as ReportBody;
    const claims = (await read('/claims')).body.claims as Array<{ source_id: string; evidence_span: string }>;
    return {
      id,
      status,
      sources,
      report,
      claims,
      read,
      webQueries: web.requests.queries.length - before.queries,
      webPages: web.requests.pages - before.pages,
    };
  }

  const documentUrl = () => `collection://${collectionId}/${documentId}`;

  it('searches the collection beside the web and cites its document with the hash of its stored text', async () => {
    const o = await research({ collection_ids: [collectionId] });
    expect(o.status.state).toBe('completed');
    const doc = o.sources.find((s) => s.url === documentUrl());
    expect(doc).toMatchObject({ domain: 'collection', content_sha256: documentSha });
    expect(o.sources.some((s) => s.url.startsWith('http://'))).toBe(true);
    expect(o.webQueries).toBeGreaterThan(0);
    // The source viewer's text is the document's stored text, with its hash.
    const content = (await o.read(`/sources/${doc!.id}/content`)).body;
    const stored = (await as(t.owner).get(`/v1/collections/${collectionId}/documents/${documentId}`).expect(200)).body;
    expect(content).toEqual({ content_sha256: documentSha, text: stored.content });
    // Its claims are quoted from it, and the report cites it.
    const own = o.claims.filter((c) => c.source_id === doc!.id);
    expect(own.length).toBeGreaterThan(0);
    for (const claim of own) expect(stored.content).toContain(claim.evidence_span);
    const cited = o.report.findings.flatMap((f) => f.source_ids as string[]);
    expect(cited).toContain(doc!.id);
  });

  it('stores the collections on the run, and none on a run without them (which searches the web as before)', async () => {
    const withOut = await as(t.owner).post('/v1/research', { query: 'Solar', include_domains: [] }).expect(200);
    const rows = await t.db
      .selectFrom('research_runs')
      .select(['id', 'collections', 'source_controls'])
      .where('id', '=', withOut.body.research_id)
      .execute();
    expect(rows[0]).toMatchObject({ collections: null, source_controls: null });
    const withIds = await as(t.owner)
      .post('/v1/research', { query: 'Solar', collection_ids: [collectionId.toUpperCase(), collectionId] })
      .expect(200);
    const row = await t.db
      .selectFrom('research_runs')
      .select('collections')
      .where('id', '=', withIds.body.research_id)
      .executeTakeFirstOrThrow();
    expect(row.collections).toEqual({ ids: [collectionId], web: true });
  });

  it('reads only the collections, never the web, when created with include_domains: []', async () => {
    const o = await research({ collection_ids: [collectionId], include_domains: [] });
    expect(o.status.state).toBe('completed');
    expect(o.webQueries).toBe(0);
    expect(o.webPages).toBe(0);
    expect(o.sources.map((s) => s.url)).toEqual([documentUrl()]);
    expect(o.report.findings.length).toBeGreaterThan(0);
    // The manifest says how the run was asked for, so that it can be asked again alike.
    expect((await o.read('/manifest')).body.collections).toEqual({ ids: [collectionId], web: false });
  });

  it("keeps include_domains to the web's pages: the collection's documents are read beside the hosts it allows", async () => {
    const o = await research({ collection_ids: [collectionId], include_domains: ['127.0.0.3'] });
    expect(o.status.state).toBe('completed');
    const web = o.sources.filter((s) => !s.url.startsWith('collection://'));
    expect(web.length).toBeGreaterThan(0);
    expect([...new Set(web.map((s) => new URL(s.url).hostname))]).toEqual(['127.0.0.3']);
    expect(o.sources.map((s) => s.url)).toContain(documentUrl());
  });

  it('keeps a run verifiable after its collection is deleted: the source keeps its text and hash', async () => {
    const own = (await as(t.owner).post('/v1/collections', { name: 'Temporary' }).expect(201)).body.collection_id;
    await request(t.app)
      .post(`/v1/collections/${own}/documents`)
      .set('X-API-Key', t.owner.key)
      .attach('file', Buffer.from(HARBOUR_NOTE), 'copy.txt')
      .expect(201);
    const o = await research({ collection_ids: [own], include_domains: [] });
    expect(o.sources).toHaveLength(1);
    const [source] = o.sources;
    const before = (await o.read(`/sources/${source!.id}/content`)).body;
    await request(t.app).delete(`/v1/collections/${own}`).set('X-API-Key', t.owner.key).expect(200);
    const after = (await o.read(`/sources/${source!.id}/content`)).body;
    expect(after).toEqual(before);
    expect(after.content_sha256).toBe(documentSha);
    const claims = (await o.read('/claims')).body.claims as Array<{ evidence_span: string }>;
    for (const claim of claims) expect(after.text).toContain(claim.evidence_span);
    expect((await o.read('/report')).body.findings).toEqual(o.report.findings);
  });

  it.each([
    [{ collection_ids: ['nope'] }, 'collection_ids.0: must be a list of collection ids'],
    [{ collection_ids: 'x' }, 'collection_ids: '],
    [
      { collection_ids: Array.from({ length: 11 }, () => crypto.randomUUID()) },
      'collection_ids: must have at most 10 items',
    ],
    [
      { collection_ids: ['00000000-0000-4000-8000-000000000000'] },
      'collection_ids: 00000000-0000-4000-8000-000000000000 is not a collection you may read',
    ],
  ])('refuses %j with 422 and creates no run', async (fields, detail) => {
    const count = async () => (await t.db.selectFrom('research_runs').select('id').execute()).length;
    const before = await count();
    const res = await as(t.owner)
      .post('/v1/research', { query: 'Solar', ...fields })
      .expect(422);
    expect(res.body.detail).toContain(detail);
    expect(await count()).toBe(before);
  });

  it("refuses another user's collection with 422, and lets an administrator name it", async () => {
    const res = await as(t.other)
      .post('/v1/research', { query: 'Solar', collection_ids: [collectionId] })
      .expect(422);
    expect(res.body.detail).toBe(`collection_ids: ${collectionId} is not a collection you may read`);
    await as(t.admin)
      .post('/v1/research', { query: 'Solar', collection_ids: [collectionId] })
      .expect(200);
  });
});
