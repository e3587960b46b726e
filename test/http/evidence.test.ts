import request from 'supertest';
import { VERSION, type AppConfig } from '@research/core';
import { createLlmClient } from '@research/llm';
import { createMetrics, createSilentLogger } from '@research/observability';
import { createResearchRunner, type ResearchServices } from '@research/pipeline';
import { corpusPages, loopbackServices } from '../engine/engine-support';
import { plausibleResponder, startFakeLlm, type FakeLlm, type FakeLlmRequest } from '../fakes/fake-llm';
import { startFakeWeb, type FakeWeb, type FakeWebPage } from '../fakes/fake-web';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { createLiveWeb, type LiveWeb } from '../support/engine';
import { insertTestRun, testConfig } from '../worker/worker-fixtures';
import { documentNumbering, markdownNumbering, sha256, sliceCodePoints } from './report-fixtures';
import { NOT_A_UUID, UNKNOWN_ID, buildTestApp, type TestApp } from './support';

const QUERY = 'How does photosynthesis convert light energy in plants?';

// Secrets of every kind the configuration holds: none may reach a manifest.
const SECRETS = {
  LLM_API_KEY: 'sk-llm-secret-4f9a2c',
  BRAVE_API_KEY: 'brave-secret-7d1e',
  TAVILY_API_KEY: 'tvly-secret-93bb',
  VISION_API_KEY: 'vision-secret-0c2f',
  AUDIO_API_KEY: 'audio-secret-55aa',
};
const CREDENTIAL_URLS = {
  SEARXNG_URL: 'http://searx-user:searx-secret-61@127.0.0.1:9/',
  DATABASE_URL: 'postgres://db-user:db-secret-8e@127.0.0.1:5432/elsewhere',
  REDIS_URL: 'redis://:redis-secret-2b@127.0.0.1:6379',
};

// A page whose text holds characters beyond the BMP before its claims: offsets in code points and in UTF-16
// code units differ there.
const LEAF_PAGE: FakeWebPage = {
  host: '127.0.0.90',
  path: '/leaf-light',
  title: 'Photosynthesis: how plants convert light energy',
  paragraphs: [
    'Field notes 🌿🌞 from the 𝔊𝔯𝔢𝔢𝔫𝔥𝔬𝔲𝔰𝔢 on plants, light and energy.',
    'In photosynthesis, plants convert light energy into chemical energy that is stored in glucose molecules.',
    'Leaves hold chlorophyll, the pigment that absorbs the light energy plants use for photosynthesis.',
  ],
};

// Text sent to POST /research/{id}/claims as it came from a source with hard line breaks.
const WRAPPED_TEXT =
  'Greenhouse log 🌱 of 2026.\n\nChlorophyll in the leaves of green plants absorbs\nlight energy, mostly red and blue light, and\nconverts it into chemical energy during photosynthesis.\n';
const WRAPPED_SENTENCE_IN_TEXT =
  'Chlorophyll in the leaves of green plants absorbs\nlight energy, mostly red and blue light, and\nconverts it into chemical energy during photosynthesis.';

/** A model that quotes the wrapped sentence on one line, with typographic quotes where there are none. */
function oneLineQuoter(request: FakeLlmRequest) {
  if (request.schemaName !== 'claims') return plausibleResponder()(request);
  return {
    kind: 'json' as const,
    content: {
      claims: [
        {
          claim_text: 'Chlorophyll absorbs red and blue light and converts it into chemical energy.',
          evidence_span: `“${WRAPPED_SENTENCE_IN_TEXT.replace(/\n/g, ' ')}”`,
          claim_type: 'fact',
          confidence: 0.9,
        },
      ],
    },
  };
}

describe('evidence anyone can check', () => {
  let t: TestApp;
  let web: FakeWeb;
  let llm: FakeLlm;
  let live: LiveWeb;
  let runnerConfig: AppConfig;
  let extractiveRun: string;
  let llmRun: string;

  const get = (path: string, key = t.other.key) => request(t.app).get(path).set('X-API-Key', key);

  async function research(services: ResearchServices): Promise<string> {
    const runner = createResearchRunner({
      db: t.db,
      services,
      metrics: createMetrics({ defaultMetrics: false }),
      logger: createSilentLogger(),
      pollIntervalMs: 200,
    });
    const run = await insertTestRun(t.db, { query: QUERY, depth: 'quick', language: 'en' });
    await runner(
      { research_id: run.id },
      { id: 'job', attempt: 1, maxAttempts: 3, afterOutage: false, signal: new AbortController().signal },
    );
    return run.id;
  }

  /** Reads a run's sources, their texts and its claims through the API, checking every hash and span. */
  async function checkedEvidence(runId: string) {
    const sources = (await get(`/v1/research/${runId}/sources`).expect(200)).body.sources as Array<{
      id: string;
      url: string;
      content_sha256: string;
    }>;
    const claims = (await get(`/v1/research/${runId}/claims`).expect(200)).body.claims as Array<{
      id: string;
      source_id: string;
      evidence_span: string;
      span_start: number;
      span_end: number;
    }>;
    expect(sources.length).toBeGreaterThan(0);
    expect(claims.length).toBeGreaterThan(0);
    const texts = new Map<string, string>();
    for (const source of sources) {
      const content = await get(`/v1/research/${runId}/sources/${source.id}/content`).expect(200);
      expect(Object.keys(content.body).sort()).toEqual(['content_sha256', 'text']);
      expect(content.body.content_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(sha256(content.body.text)).toBe(content.body.content_sha256);
      expect(source.content_sha256).toBe(content.body.content_sha256);
      texts.set(source.id, content.body.text);
    }
    for (const claim of claims) {
      expect([typeof claim.span_start, typeof claim.span_end]).toEqual(['number', 'number']);
      expect(sliceCodePoints(texts.get(claim.source_id)!, claim.span_start, claim.span_end)).toBe(claim.evidence_span);
    }
    return { sources, claims, texts };
  }

  beforeAll(async () => {
    web = await startFakeWeb({ pages: [...corpusPages(PHOTOSYNTHESIS_CORPUS), LEAF_PAGE] });
    llm = await startFakeLlm();
    const llmEnv = { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model' };
    t = await buildTestApp('evidence', {
      env: { ...SECRETS, ...CREDENTIAL_URLS, ...llmEnv, SEARCH_PROVIDER: 'searxng' },
    });
    runnerConfig = testConfig({
      ...llmEnv,
      LLM_API_KEY: SECRETS.LLM_API_KEY,
      CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
      CRAWLER_TIMEOUT_MS: '5000',
    });
    live = createLiveWeb(runnerConfig);
    const services = loopbackServices(web.searchUrl, live.services);
    extractiveRun = await research({ ...services, llm: null });
    // A model that quotes in capitals with typographic quotes: grounding finds the passage all the same.
    llm.responder = plausibleResponder({ mangleQuotes: true });
    const metrics = createMetrics({ defaultMetrics: false });
    const client = createLlmClient({
      config: runnerConfig.llm,
      metrics,
      logger: createSilentLogger(),
      retryBaseMs: 10,
    });
    llmRun = await research({ ...services, llm: client });
    llm.responder = plausibleResponder();
  }, 120_000);
  afterAll(async () => {
    await live?.close();
    await llm?.close();
    await web?.close();
    await t?.close();
  });

  describe('spans and hashes of a real run', () => {
    it('places every claim of the extractive engine at its code point offsets in the hashed text', async () => {
      const { claims, texts } = await checkedEvidence(extractiveRun);
      // Where the text holds characters beyond the BMP before a claim, code points and UTF-16 units differ.
      const afterEmoji = claims.filter((c) => {
        const text = texts.get(c.source_id)!;
        return text.includes('🌿') && text.indexOf('🌿') < text.indexOf(c.evidence_span);
      });
      expect(afterEmoji.length).toBeGreaterThan(0);
      for (const c of afterEmoji)
        expect(texts.get(c.source_id)!.indexOf(c.evidence_span)).toBeGreaterThan(c.span_start);
    });

    it("stores the source's own text as the span when the model quoted it in capitals and typographic quotes", async () => {
      const { claims } = await checkedEvidence(llmRun);
      expect(llm.requests.filter((r) => r.schemaName === 'claims').length).toBeGreaterThan(0);
      // The model's quotes were all capitals; what is stored is what the sources write.
      expect(claims.some((c) => c.evidence_span !== c.evidence_span.toUpperCase())).toBe(true);
    });

    it('places the claims that POST /research/{id}/claims stores, across the line breaks of the text', async () => {
      llm.responder = oneLineQuoter;
      try {
        const posted = await request(t.app)
          .post(`/research/${llmRun}/claims`)
          .set('X-API-Key', t.admin.key)
          .send({ text: WRAPPED_TEXT, url: 'https://example.org/greenhouse-log', language: 'en' })
          .expect(200);
        const claim = posted.body.claims[0];
        // The passage as the text writes it, line breaks and all (grounding leaves out the final stop it
        // trimmed with the quote marks).
        expect(WRAPPED_SENTENCE_IN_TEXT).toContain(claim.evidence_span);
        expect(claim.evidence_span).toContain('absorbs\nlight energy');
        expect(sliceCodePoints(WRAPPED_TEXT, claim.span_start, claim.span_end)).toBe(claim.evidence_span);
        const content = await get(`/v1/research/${llmRun}/sources/${posted.body.source_id}/content`).expect(200);
        expect(content.body).toEqual({ content_sha256: sha256(WRAPPED_TEXT), text: WRAPPED_TEXT });
        await checkedEvidence(llmRun);
      } finally {
        llm.responder = plausibleResponder();
      }
    });
  });

  describe('GET /v1/research/:id/report/document of a real run', () => {
    it.each([
      ['the extractive engine', () => extractiveRun],
      ['a model', () => llmRun],
    ])(
      "quotes, for a run of %s, each claim's passage at its offsets, numbered as the Markdown export",
      async (_label, runOf) => {
        const runId = runOf();
        const { claims, texts } = await checkedEvidence(runId);
        const doc = (await get(`/v1/research/${runId}/report/document`).expect(200)).body;
        expect(doc.state).toBe('completed');
        const quotes = doc.findings.flatMap((f: { quotes: unknown[] }) => f.quotes) as Array<{
          claim_id: string;
          source_id: string;
          span_start: number;
          span_end: number;
          evidence: { evidence_type: string } | null;
        }>;
        expect(quotes.length).toBeGreaterThan(0);
        for (const q of quotes) {
          const claim = claims.find((c) => c.id === q.claim_id)!;
          expect(claim.source_id).toBe(q.source_id);
          expect(sliceCodePoints(texts.get(q.source_id)!, q.span_start, q.span_end)).toBe(claim.evidence_span);
          expect(q.evidence).not.toBeNull();
        }
        const md = (await get(`/v1/research/${runId}/report?format=markdown`).expect(200)).text;
        expect(documentNumbering(doc)).toEqual(markdownNumbering(md));
        // Every source of the run is listed once, typed from its claims' scores (none for a source whose
        // claims POST …/claims added after the run's comparison).
        expect(doc.sources.map((s: { source_id: string }) => s.source_id).sort()).toEqual([...texts.keys()].sort());
        const scored = new Set(
          (await get(`/v1/research/${runId}/evidence`).expect(200)).body.evidence.map(
            (e: { claim_id: string }) => claims.find((c) => c.id === e.claim_id)!.source_id,
          ),
        );
        for (const s of doc.sources as Array<{ source_id: string; claim_count: number; evidence_type: unknown }>) {
          expect(s.claim_count).toBe(claims.filter((c) => c.source_id === s.source_id).length);
          if (scored.has(s.source_id)) expect(['primary_report', 'secondary_report']).toContain(s.evidence_type);
          else expect(s.evidence_type).toBeNull();
        }
      },
    );
  });

  describe('GET /v1/research/:id/sources/:source_id/content', () => {
    it('answers 404 for a source of another run, an unknown source, and an unknown, malformed or hidden run', async () => {
      const other = (await get(`/v1/research/${extractiveRun}/sources`).expect(200)).body.sources[0].id as string;
      const foreign = await get(`/v1/research/${llmRun}/sources/${other}/content`).expect(404);
      expect(foreign.body).toEqual({ detail: `Source ${other} not found in research run ${llmRun}` });
      await get(`/v1/research/${llmRun}/sources/no-such-source/content`).expect(404);
      await get(`/v1/research/${llmRun}/sources/${'x'.repeat(5000)}/content`).expect(404);
      const unknown = await get(`/v1/research/${UNKNOWN_ID}/sources/${other}/content`).expect(404);
      expect(unknown.body).toEqual({ detail: `Research run ${UNKNOWN_ID} not found` });
      await get(`/v1/research/${NOT_A_UUID}/sources/${other}/content`).expect(404);
      const hidden = await insertTestRun(t.db, { query: QUERY });
      await t.db.updateTable('research_runs').set({ is_hidden: true }).where('id', '=', hidden.id).execute();
      await get(`/v1/research/${hidden.id}/sources/${other}/content`).expect(404);
      await request(t.app).get(`/v1/research/${extractiveRun}/sources/${other}/content`).expect(401);
    });
  });

  describe('GET /v1/research/:id/manifest', () => {
    it('holds the version, budgets and their use, the engines, every query and every URL tried with its hash', async () => {
      const manifest = (await get(`/v1/research/${llmRun}/manifest`).expect(200)).body;
      const health = await request(t.app).get('/health').expect(200);
      expect(manifest.service).toEqual({ version: VERSION });
      expect(manifest.service.version).toBe(health.body.version);
      expect(manifest).toMatchObject({
        research_id: llmRun,
        query: QUERY,
        depth: 'quick',
        state: 'completed',
        rounds: 1,
      });
      expect(manifest.configuration).toMatchObject({
        search: { provider: 'searxng' },
        llm: { enabled: true, model: 'fake-model' },
        crawler: { respect_robots: true },
      });
      expect(manifest.engines).toContainEqual({ step: 'analyze', round: 1, mode: 'llm', model: 'fake-model' });

      const run = await t.db.selectFrom('research_runs').selectAll().where('id', '=', llmRun).executeTakeFirstOrThrow();
      const sources = (await get(`/v1/research/${llmRun}/sources`).expect(200)).body.sources as Array<{
        id: string;
        url: string;
        content_sha256: string;
      }>;
      expect(manifest.budget.max_sources).toEqual({ limit: 15, used: sources.length });
      expect(manifest.budget.max_search_queries).toEqual({ limit: 10, used: run.usage.search_queries });
      expect(manifest.budget.max_llm_requests).toEqual({ limit: 15, used: run.usage.llm_requests });
      expect(manifest.budget.max_context_per_llm_call).toEqual({ limit: 16000, used: null });
      expect(manifest.budget.max_research_duration_seconds.used).toBeGreaterThanOrEqual(0);

      // The queries are the ones the search provider received, each with its round.
      const queries = manifest.queries as Array<{ round: number; query: string; failed: boolean }>;
      expect(queries.map((q) => q.query)).toContain(QUERY);
      for (const q of queries) expect(web.requests.queries).toContain(q.query);
      expect(queries.length).toBe(run.usage.search_queries);

      // Every source is a URL fetched, with its time and hash; the posted text's source too.
      const urls = manifest.urls as Array<Record<string, unknown>>;
      for (const s of sources) {
        expect(urls).toContainEqual(
          expect.objectContaining({
            url: s.url,
            outcome: 'fetched',
            source_id: s.id,
            content_sha256: s.content_sha256,
          }),
        );
      }
      for (const u of urls) expect(Date.parse(u.at as string)).not.toBeNaN();
      const events = (await get(`/v1/research/${llmRun}/events?limit=1000`).set('Accept', 'application/json')).body
        .items as Array<{ type: string; url: string; outcome: string; reason?: string }>;
      const tried = events.filter((e) => e.type === 'source');
      for (const e of tried) {
        expect(urls).toContainEqual(
          expect.objectContaining({ url: e.url, outcome: e.outcome, reason: e.reason ?? null }),
        );
      }
    });

    it('shows no key, password or URL of the configuration', async () => {
      for (const runId of [extractiveRun, llmRun]) {
        const text = JSON.stringify((await get(`/v1/research/${runId}/manifest`).expect(200)).body);
        for (const secret of [
          ...Object.values(SECRETS),
          'searx-secret',
          'db-secret',
          'redis-secret',
          'searx-user',
          llm.baseUrl,
        ]) {
          expect(text).not.toContain(secret);
        }
      }
    });

    it('names the extractive engine for a run without a model', async () => {
      const manifest = (await get(`/v1/research/${extractiveRun}/manifest`).expect(200)).body;
      expect(manifest.engines).toContainEqual({ step: 'analyze', round: 1, mode: 'extractive', model: null });
    });

    it('describes a run no worker has picked up yet: nothing tried, nothing used', async () => {
      const waiting = await insertTestRun(t.db, { query: QUERY, depth: 'normal' });
      const manifest = (await get(`/v1/research/${waiting.id}/manifest`).expect(200)).body;
      expect(manifest).toMatchObject({ state: 'created', started_at: null, finished_at: null, rounds: 2 });
      expect(manifest).toMatchObject({ engines: [], fallbacks: [], queries: [], urls: [], source_controls: null });
      expect(manifest.budget.max_search_queries).toEqual({ limit: 20, used: 0 });
      expect(manifest.budget.max_research_duration_seconds).toEqual({ limit: 3600, used: 0 });
    });

    it('answers 404 for an unknown, malformed or hidden run and 401 without a key', async () => {
      expect((await get(`/v1/research/${UNKNOWN_ID}/manifest`).expect(404)).body).toEqual({
        detail: `Research run ${UNKNOWN_ID} not found`,
      });
      await get(`/v1/research/${NOT_A_UUID}/manifest`).expect(404);
      const hidden = await insertTestRun(t.db, { query: QUERY });
      await t.db.updateTable('research_runs').set({ is_hidden: true }).where('id', '=', hidden.id).execute();
      await get(`/v1/research/${hidden.id}/manifest`).expect(404);
      await request(t.app).get(`/v1/research/${llmRun}/manifest`).expect(401);
    });
  });
});
