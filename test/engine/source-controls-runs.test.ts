import request from 'supertest';
import type { ReportBody } from '@research/core';
import { createMetrics, createSilentLogger } from '@research/observability';
import { createResearchRunner } from '@research/pipeline';
import type { ResearchJobContext } from '@research/queue';
import { buildTestApp, type TestApp } from '../http/support';
import { createLiveWeb, type LiveWeb } from '../support/engine';
import { startFakeWeb, type FakeWeb, type FakeWebPage } from '../fakes/fake-web';
import { testConfig } from '../worker/worker-fixtures';
import { loopbackServices, PLANTED_QUERY, plantedContradictionPages } from './engine-support';

// Runs created through POST /v1/research with source controls, run by the pipeline over a loopback web
// whose pages each live on their own host, searched through the real SearxNG provider (the fake web's
// search reads `site:` operators as SearxNG's engines do).

/** A page on the question without a publication date (written for these tests). */
const UNDATED_PAGE: FakeWebPage = {
  host: '127.0.0.9',
  path: '/carbon-budget-notes',
  title: 'Notes on human and volcanic carbon dioxide',
  paragraphs: [
    'Human activities emit far more carbon dioxide per year than volcanoes, which emit well under one billion tons of carbon dioxide per year.',
    'Most human carbon dioxide emissions come from burning coal, oil and gas.',
  ],
};

/** A page on the question whose date only its HTML gives (its search result is undated). */
const OLD_PAGE: FakeWebPage = {
  host: '127.0.0.10',
  path: '/volcanic-gas-archive',
  title: 'Archive: human and volcanic carbon dioxide emissions',
  paragraphs: [
    'Human activities emit about one hundred times more carbon dioxide per year than volcanoes, which emit a few hundred million tons of carbon dioxide per year.',
  ],
  metaPublishedDate: '2017-06-01T08:00:00Z',
};

function job(): ResearchJobContext {
  return { id: 'job', attempt: 1, maxAttempts: 3, afterOutage: false, signal: new AbortController().signal };
}

describe('research runs with source controls', () => {
  let t: TestApp;
  let web: FakeWeb;
  let live: LiveWeb;
  beforeAll(async () => {
    t = await buildTestApp('source-control-runs');
    web = await startFakeWeb({ pages: [...plantedContradictionPages(), UNDATED_PAGE, OLD_PAGE] });
    live = createLiveWeb(
      testConfig({
        SEARCH_PROVIDER: 'searxng',
        SEARXNG_URL: web.searchUrl.replace(/\/search$/, ''),
        // The fake web's pages live on loopback, which the crawler refuses by default.
        CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
        CRAWLER_TIMEOUT_MS: '5000',
      }),
    );
  });
  afterAll(async () => {
    await live?.close();
    await web?.close();
    await t?.close();
  });

  /** Creates a run through the API with `fields`, runs it to its end, and reads what a client sees. */
  async function research(fields: object, options: { nativeFilter?: boolean } = {}) {
    const created = await request(t.app)
      .post('/v1/research')
      .set('X-API-Key', t.owner.key)
      .send({ query: PLANTED_QUERY, language: 'en', depth: 'quick', ...fields })
      .expect(200);
    const id = created.body.research_id as string;
    const queriesBefore = web.requests.queries.length;
    const metrics = createMetrics({ defaultMetrics: false });
    const runner = createResearchRunner({
      db: t.db,
      // Without the native filter: a search that sends queries as they are and ignores the controls.
      services:
        options.nativeFilter === false
          ? { ...loopbackServices(web.searchUrl, live.services), llm: null }
          : { ...live.services, llm: null },
      metrics,
      logger: createSilentLogger(),
      pollIntervalMs: 200,
    });
    await runner({ research_id: id }, job());
    const read = (path: string) =>
      request(t.app).get(`/v1/research/${id}${path}`).set('X-API-Key', t.owner.key).expect(200);
    const status = (await read('')).body as { state: string };
    const sources = (await read('/sources')).body.sources as Array<{ url: string; domain: string }>;
    const plan = (await read('/plan')).body.plan as Record<string, unknown>;
    const report = (await read('/report')).body as ReportBody;
    const hosts = [...new Set(sources.map((s) => new URL(s.url).hostname))].sort();
    const events = (
      await request(t.app)
        .get(`/v1/research/${id}/events?limit=1000`)
        .set('X-API-Key', t.owner.key)
        .set('Accept', 'application/json')
        .expect(200)
    ).body.items as Array<{ type: string; [key: string]: unknown }>;
    const queries = web.requests.queries.slice(queriesBefore);
    return { id, status, sources, hosts, plan, report, queries, events };
  }

  let baseline: Awaited<ReturnType<typeof research>>;
  beforeAll(async () => {
    baseline = await research({});
  });

  it('reads every host of the question without controls (the baseline the other runs narrow)', () => {
    expect(baseline.status.state).toBe('completed');
    expect(baseline.hosts).toEqual(['127.0.0.10', '127.0.0.2', '127.0.0.3', '127.0.0.4', '127.0.0.9']);
    expect(baseline.plan).not.toHaveProperty('source_controls');
    expect(baseline.report.methodology).not.toMatch(/Source controls/);
  });

  it('keeps to include_domains: no other host among its sources, site: operators sent, controls in plan and methodology', async () => {
    const o = await research({ include_domains: ['127.0.0.2', '127.0.0.3'] });
    expect(o.status.state).toBe('completed');
    expect(o.hosts).toEqual(['127.0.0.2', '127.0.0.3']);
    expect(o.queries.length).toBeGreaterThan(0);
    for (const q of o.queries) expect(q).toMatch(/ \(site:127\.0\.0\.2 OR site:127\.0\.0\.3\)$/);
    expect(o.plan.source_controls).toEqual({
      include_domains: ['127.0.0.2', '127.0.0.3'],
      exclude_domains: [],
      published_after: null,
      max_sources: null,
    });
    expect(o.plan.search_queries).toEqual(expect.any(Array));
    expect(o.report.methodology).toContain('Source controls: only sources from 127.0.0.2, 127.0.0.3.');
  });

  it('enforces include_domains on the hits of a search that cannot filter, before reading them', async () => {
    const pagesBefore = web.requests.pages;
    const o = await research({ include_domains: ['127.0.0.2'] }, { nativeFilter: false });
    expect(o.status.state).toBe('completed');
    expect(o.hosts).toEqual(['127.0.0.2']);
    for (const q of o.queries) expect(q).not.toMatch(/site:/);
    // Only 127.0.0.2 was fetched (its robots.txt and its page), nothing of the hosts the controls refuse.
    expect(web.requests.pages - pagesBefore).toBeLessThanOrEqual(2);
    // Each hit refused is reported (a later hop's search may give a refused page again).
    const refused = o.events.filter((e) => e.type === 'source' && e.reason === 'source_controls_domain');
    expect([...new Set(refused.map((e) => new URL(e.url as string).hostname))].sort()).toEqual([
      '127.0.0.10',
      '127.0.0.3',
      '127.0.0.4',
      '127.0.0.9',
    ]);
    const filtered = o.events.filter((e) => e.type === 'filtered' && e.reason === 'domain');
    const count = filtered.reduce((n, e) => n + (e.count as number), 0);
    expect(count).toBe(refused.length);
    expect(o.report.methodology).toContain(
      `Source controls: only sources from 127.0.0.2. Left out by them: ${count} hit(s) or page(s) on other domains.`,
    );
  });

  it('leaves out an excluded host', async () => {
    const o = await research({ exclude_domains: ['127.0.0.4'] });
    expect(o.status.state).toBe('completed');
    expect(o.hosts).toEqual(['127.0.0.10', '127.0.0.2', '127.0.0.3', '127.0.0.9']);
    for (const q of o.queries) expect(q).toMatch(/ -site:127\.0\.0\.4$/);
    expect(o.report.methodology).toContain('Source controls: none from 127.0.0.4.');
  });

  it('refuses a page dated before published_after and keeps an undated one, flagged in the uncertainties', async () => {
    const o = await research({ published_after: '2019-01-01' });
    expect(o.status.state).toBe('completed');
    // 127.0.0.3's hit is dated 2018-03-10 (refused before any fetch); 127.0.0.10's hit is undated but its page
    // says 2017-06-01 (refused once read); 127.0.0.9's page has no date at all.
    expect(o.hosts).toEqual(['127.0.0.2', '127.0.0.4', '127.0.0.9']);
    const refused = o.events.filter((e) => e.type === 'source' && e.reason === 'source_controls_date');
    expect([...new Set(refused.map((e) => new URL(e.url as string).hostname))].sort()).toEqual([
      '127.0.0.10',
      '127.0.0.3',
    ]);
    expect(o.report.methodology).toContain('Source controls: published on or after 2019-01-01.');
    expect(o.report.methodology).toMatch(/Left out by them: \d+ dated before 2019-01-01\./);
    expect(o.report.uncertainties).toContain(
      '1 source(s) have no known publication date, so whether they were published on or after 2019-01-01 could not be checked.',
    );
    expect(o.plan.source_controls).toMatchObject({ published_after: '2019-01-01' });
  });

  it('caps the sources at max_sources', async () => {
    expect(baseline.sources.length).toBeGreaterThan(2);
    const o = await research({ max_sources: 2 });
    expect(o.status.state).toBe('completed');
    expect(o.sources.length).toBe(2);
    expect(o.report.methodology).toContain('Source controls: at most 2 sources.');
  });

  it('names the controls in the methodology in the run language (German)', async () => {
    const o = await research({ language: 'de', exclude_domains: ['127.0.0.4'], max_sources: 3 });
    expect(o.status.state).toBe('completed');
    expect(o.hosts).not.toContain('127.0.0.4');
    expect(o.report.methodology).toContain('Quellenvorgaben: keine von 127.0.0.4; höchstens 3 Quellen.');
  });
});
