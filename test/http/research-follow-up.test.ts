import { spawnSync } from 'node:child_process';
import path from 'node:path';
import request from 'supertest';
import { createMetrics, createSilentLogger } from '@research/observability';
import { createResearchRunner, type ResearchServices } from '@research/pipeline';
import { corpusPages, loopbackServices } from '../engine/engine-support';
import { matchingPages, startFakeWeb, type FakeWeb, type FakeWebPage } from '../fakes/fake-web';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { createLiveWeb, type LiveWeb } from '../support/engine';
import { testConfig } from '../worker/worker-fixtures';
import { sha256 } from './report-fixtures';
import { NOT_A_UUID, UNKNOWN_ID, buildTestApp, insertTestRun, type TestApp } from './support';

const CLI = path.resolve(__dirname, '../../apps/api/dist/cli.js');

const PARENT_QUERY = 'How does photosynthesis convert light energy in plants?';
const FOLLOW_UP_QUERY = 'Which atom sits at the centre of the chlorophyll molecule that absorbs light in plants?';

// A page only the follow-up's question finds: the search engine gives it only to a query asking after an atom.
const MAGNESIUM_PAGE: FakeWebPage = {
  host: '127.0.0.91',
  path: '/magnesium-in-chlorophyll',
  title: 'Magnesium in chlorophyll',
  paragraphs: [
    'A magnesium atom sits at the centre of the chlorophyll molecule, held by four nitrogen atoms of its ring.',
    'Without magnesium, plants cannot build the chlorophyll molecule that absorbs light for photosynthesis.',
  ],
};

interface Source {
  id: string;
  url: string;
  content_sha256: string;
  retrieved_at: string;
}

describe('follow-up questions (POST /v1/research with parent_id)', () => {
  let t: TestApp;
  let web: FakeWeb;
  let live: LiveWeb;
  let services: ResearchServices;
  let parentId: string;
  let followUpId: string;
  let parentSources: Source[];
  let pagesOfParent: string[];
  let pagesOfFollowUp: string[];
  let queriesOfFollowUp: string[];
  let rank: (query: string) => FakeWebPage[];

  const get = (p: string, key = t.owner.key) => request(t.app).get(p).set('X-API-Key', key);
  const create = (body: Record<string, unknown>, key = t.owner.key) =>
    request(t.app).post('/v1/research').set('X-API-Key', key).send(body);

  /** What the worker does with a queued run: every step, to its end. */
  async function work(runId: string): Promise<void> {
    const runner = createResearchRunner({
      db: t.db,
      services,
      metrics: createMetrics({ defaultMetrics: false }),
      logger: createSilentLogger(),
      pollIntervalMs: 200,
    });
    await runner(
      { research_id: runId },
      { id: `job-${runId}`, attempt: 1, maxAttempts: 3, afterOutage: false, signal: new AbortController().signal },
    );
  }

  beforeAll(async () => {
    const corpus = corpusPages(PHOTOSYNTHESIS_CORPUS);
    rank = (query) => [...(/\batom\b/i.test(query) ? [MAGNESIUM_PAGE] : []), ...matchingPages(corpus, query)];
    web = await startFakeWeb({ pages: [...corpus, MAGNESIUM_PAGE], rank });
    t = await buildTestApp('follow-up');
    live = createLiveWeb(testConfig({ CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true', CRAWLER_TIMEOUT_MS: '5000' }));
    services = loopbackServices(web.searchUrl, live.services);

    parentId = (await create({ query: PARENT_QUERY, depth: 'quick', language: 'en' }).expect(200)).body.research_id;
    await work(parentId);
    parentSources = (await get(`/v1/research/${parentId}/sources`).expect(200)).body.sources;
    pagesOfParent = [...web.requests.urls];
    const queriesOfParent = web.requests.queries.length;

    const created = await create({ query: FOLLOW_UP_QUERY, depth: 'quick', language: 'en', parent_id: parentId });
    expect(created.status).toBe(200);
    followUpId = created.body.research_id;
    await work(followUpId);
    pagesOfFollowUp = web.requests.urls.slice(pagesOfParent.length);
    queriesOfFollowUp = web.requests.queries.slice(queriesOfParent);
  }, 120_000);
  afterAll(async () => {
    await live?.close();
    await web?.close();
    await t?.close();
  });

  it('completes, answers its own question and cites a source of its parent with the parent’s hash', async () => {
    const status = (await get(`/v1/research/${followUpId}`).expect(200)).body;
    expect(status).toMatchObject({ state: 'completed', query: FOLLOW_UP_QUERY, parent_id: parentId });
    const report = (await get(`/v1/research/${followUpId}/report`).expect(200)).body;
    expect(report.query).toBe(FOLLOW_UP_QUERY);
    expect(report.summary.toLowerCase()).toContain('magnesium');

    const sources: Source[] = (await get(`/v1/research/${followUpId}/sources`).expect(200)).body.sources;
    const byId = new Map(sources.map((s) => [s.id, s]));
    const parentHashes = new Map(parentSources.map((s) => [s.url, s.content_sha256]));
    const cited = report.findings.flatMap((f: { source_ids: string[] }) => f.source_ids.map((id) => byId.get(id)!));
    const citedOfParent = cited.filter((s: Source) => parentHashes.get(s.url) === s.content_sha256);
    expect(citedOfParent.length).toBeGreaterThan(0);
    // The copies are the follow-up's own rows (ids of their own), with the parent's text, read when the parent read it.
    for (const s of citedOfParent) {
      expect(parentSources.map((p) => p.id)).not.toContain(s.id);
      expect(s.retrieved_at).toBe(parentSources.find((p) => p.url === s.url)!.retrieved_at);
      const content = (await get(`/v1/research/${followUpId}/sources/${s.id}/content`).expect(200)).body;
      expect(sha256(content.text)).toBe(parentHashes.get(s.url));
    }
    // Its methodology says what it started from and counts only the pages it fetched itself.
    const parentClaims = (await get(`/v1/research/${parentId}/claims`).expect(200)).body.total;
    expect(report.methodology).toContain(
      `This run is a follow-up: it started from the ${parentSources.length} sources and ${parentClaims} claims of the run it follows up`,
    );
    expect(report.methodology).toContain(`${sources.length - parentSources.length} sources fetched`);
    const parentReport = (await get(`/v1/research/${parentId}/report`).expect(200)).body;
    expect(parentReport.methodology).not.toContain('follow-up');
    // The run list finds it by a word its report holds and its question does not.
    const found = (await get('/v1/research?q=magnesium').expect(200)).body;
    expect(found.items.map((i: { research_id: string }) => i.research_id)).toEqual([followUpId]);
    // Its own search read the page the parent never found.
    expect(sources.map((s) => s.url)).toContain(web.urlOf(MAGNESIUM_PAGE));
    expect(parentSources.map((s) => s.url)).not.toContain(web.urlOf(MAGNESIUM_PAGE));
  });

  it('does not fetch its parent’s pages again, though its own search finds them', async () => {
    expect(parentSources.length).toBeGreaterThan(0);
    expect(pagesOfFollowUp).toContain(web.urlOf(MAGNESIUM_PAGE));
    for (const s of parentSources) expect(pagesOfFollowUp).not.toContain(s.url);
    // The search engine answered the follow-up's queries with pages of its parent (found, not read again).
    const answered = new Set(queriesOfFollowUp.flatMap((q) => rank(q).map((page) => web.urlOf(page))));
    expect(parentSources.filter((s) => answered.has(s.url)).length).toBeGreaterThan(0);
  });

  it('shows parent_id on the status and the list, null for a run that follows none, and lists a run’s follow-ups', async () => {
    expect((await get(`/v1/research/${parentId}/status`).expect(200)).body.parent_id).toBeNull();
    const all = (await get('/v1/research?limit=100').expect(200)).body;
    const item = (id: string) => all.items.find((i: { research_id: string }) => i.research_id === id);
    expect(item(followUpId).parent_id).toBe(parentId);
    expect(item(parentId).parent_id).toBeNull();

    const second = (
      await create({ query: 'What colour of light does chlorophyll reflect?', parent_id: parentId }).expect(200)
    ).body.research_id as string;
    const followUps = (await get(`/v1/research?parent_id=${parentId}`).expect(200)).body;
    expect(followUps.total).toBe(2);
    expect(followUps.items.map((i: { research_id: string }) => i.research_id)).toEqual([second, followUpId]);
    const paged = (await get(`/v1/research?parent_id=${parentId}&limit=1&offset=1`).expect(200)).body;
    expect(paged).toMatchObject({ total: 2, limit: 1, offset: 1 });
    expect(paged.items.map((i: { research_id: string }) => i.research_id)).toEqual([followUpId]);
    expect((await get(`/v1/research?parent_id=${followUpId}`).expect(200)).body).toMatchObject({ total: 0, items: [] });
    // A follow-up starts with its parent's sources and claims, before any step of its own.
    const fresh = (await get(`/v1/research/${second}`).expect(200)).body;
    expect(fresh.state).toBe('created');
    expect(fresh.source_count).toBe(parentSources.length);
    await request(t.app).delete(`/v1/research/${second}`).set('X-API-Key', t.owner.key).expect(200);
    expect((await get(`/v1/research?parent_id=${parentId}`).expect(200)).body.total).toBe(1);
  });

  it('refuses a parent that is malformed, unknown, hidden or failed with 422, and one still running with 409, storing nothing', async () => {
    const before = (await get('/v1/research').expect(200)).body.total;
    const refused = async (parent: unknown, status: number) =>
      (await create({ query: FOLLOW_UP_QUERY, parent_id: parent }).expect(status)).body.detail as string;

    expect(await refused(NOT_A_UUID, 422)).toBe('parent_id: must be a research run id (a UUID)');
    expect(await refused(42, 422)).toMatch(/^parent_id: /);
    expect(await refused(UNKNOWN_ID, 422)).toBe(`parent_id: research run ${UNKNOWN_ID} not found`);
    const hidden = await insertTestRun(t.db, { owner: t.other.id, state: 'completed', hidden: true });
    expect(await refused(hidden, 422)).toBe(`parent_id: research run ${hidden} not found`);
    const failed = await insertTestRun(t.db, { owner: t.other.id, state: 'failed' });
    expect(await refused(failed, 422)).toBe(
      `parent_id: research run ${failed} failed; a follow-up starts from a completed or stopped run`,
    );
    const running = await insertTestRun(t.db, { owner: t.other.id, state: 'fetching' });
    expect(await refused(running, 409)).toBe(
      `Research run ${running} has not finished (state fetching): ask a follow-up once it has completed.`,
    );
    // The parent's depth rule comes first, as for any run.
    await create({ query: FOLLOW_UP_QUERY, depth: 'bottomless', parent_id: running }).expect(400);
    expect((await get('/v1/research').expect(200)).body.total).toBe(before + 2);
  });

  it('follows up a run of another user, which any caller may read', async () => {
    const res = await create({ query: FOLLOW_UP_QUERY, parent_id: parentId }, t.other.key).expect(200);
    expect((await get(`/v1/research/${res.body.research_id}`, t.other.key).expect(200)).body.parent_id).toBe(parentId);
    await request(t.app).delete(`/v1/research/${res.body.research_id}`).set('X-API-Key', t.other.key).expect(200);
  });

  it('keeps its report, sources, claims and evidence readable and verifiable once the parent is deleted and purged', async () => {
    const read = async () => ({
      report: (await get(`/v1/research/${followUpId}/report`).expect(200)).body,
      sources: (await get(`/v1/research/${followUpId}/sources`).expect(200)).body,
      claims: (await get(`/v1/research/${followUpId}/claims`).expect(200)).body,
      evidence: (await get(`/v1/research/${followUpId}/evidence`).expect(200)).body,
      manifest: (await get(`/v1/research/${followUpId}/manifest`).expect(200)).body,
    });
    const before = await read();
    expect(before.claims.total).toBeGreaterThan(0);
    // The manifest names the parent, and lists its sources as round 0 with their hashes.
    expect(before.manifest.parent_id).toBe(parentId);
    const inherited = before.manifest.urls.filter((u: { round: number }) => u.round === 0);
    expect(inherited.map((u: { url: string; content_sha256: string }) => [u.url, u.content_sha256]).sort()).toEqual(
      parentSources.map((s) => [s.url, s.content_sha256]).sort(),
    );
    expect(before.evidence.total).toBe(before.claims.total);

    await request(t.app).delete(`/v1/research/${parentId}`).set('X-API-Key', t.owner.key).expect(200);
    await get(`/v1/research/${parentId}`).expect(404);
    expect(await read()).toEqual(before);
    expect((await get(`/v1/research/${followUpId}`).expect(200)).body.parent_id).toBe(parentId);

    await request(t.app).delete(`/v1/admin/research/${parentId}`).set('X-API-Key', t.admin.key).expect(200);
    const parentRows = await t.db.selectFrom('sources').select('id').where('run_id', '=', parentId).execute();
    expect(parentRows).toEqual([]);
    const afterPurge = await read();
    expect({ ...afterPurge, manifest: { ...afterPurge.manifest, parent_id: parentId } }).toEqual(before);
    // A purged parent is no run: the follow-up no longer names it.
    expect(afterPurge.manifest.parent_id).toBeNull();
    expect((await get(`/v1/research/${followUpId}`).expect(200)).body.parent_id).toBeNull();

    for (const s of before.sources.sources as Source[]) {
      const content = (await get(`/v1/research/${followUpId}/sources/${s.id}/content`).expect(200)).body;
      expect(sha256(content.text)).toBe(s.content_sha256);
    }
    const verified = spawnSync(process.execPath, [CLI, 'verify', followUpId], {
      env: { PATH: process.env.PATH, LOG_LEVEL: 'error', DATABASE_URL: t.database.url },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(verified.stderr.trim()).toBe('');
    expect(verified.status).toBe(0);
  });
});
