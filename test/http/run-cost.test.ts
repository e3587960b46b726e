import request from 'supertest';
import { DEPTH_BUDGETS, type AppConfig } from '@research/core';
import { createLlmClient } from '@research/llm';
import { createMetrics, createSilentLogger, snapshotFleetMetrics, type Metrics } from '@research/observability';
import {
  createResearchRunner,
  stepModule,
  type ResearchServices,
  type RunSnapshot,
  type StepContext,
} from '@research/pipeline';
import { corpusPages, loopbackServices } from '../engine/engine-support';
import { startFakeLlm, type FakeLlm, type FakeLlmRequest } from '../fakes/fake-llm';
import { startFakeWeb, type FakeWeb } from '../fakes/fake-web';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { createLiveWeb, type LiveWeb } from '../support/engine';
import { promValue } from '../worker/metrics-reading';
import { testConfig } from '../worker/worker-fixtures';
import { buildTestApp, type TestApp } from './support';

const QUERY = 'How does photosynthesis convert light energy in plants?';
const PRICES = { LLM_PRICE_INPUT_PER_MTOK: '2.5', LLM_PRICE_OUTPUT_PER_MTOK: '10' };

/** What the fake LLM reported for `requests`: tokens in and out, as its answers' `usage` said. */
function reported(requests: readonly FakeLlmRequest[]) {
  return {
    llm_requests: requests.length,
    llm_tokens_input: requests.reduce((n, r) => n + (r.usage?.prompt_tokens ?? 0), 0),
    llm_tokens_output: requests.reduce((n, r) => n + (r.usage?.completion_tokens ?? 0), 0),
  };
}

const priceOf = (tokensIn: number, tokensOut: number) =>
  Math.round(((tokensIn * 2.5 + tokensOut * 10) / 1_000_000) * 1_000_000) / 1_000_000;

describe('what a run costs', () => {
  let t: TestApp;
  let unpriced: TestApp;
  let web: FakeWeb;
  let llm: FakeLlm;
  let live: LiveWeb;
  let services: ResearchServices;
  let workerMetrics: Metrics;
  let runnerConfig: AppConfig;

  const post = (path: string, body: unknown, app = t) =>
    request(app.app)
      .post(path)
      .set('X-API-Key', app.owner.key)
      .send(body as object);
  const get = (path: string, app = t) => request(app.app).get(path).set('X-API-Key', app.owner.key);

  /** Creates a run through the API and works it as a worker does, with `steps` in place of some steps' work. */
  async function research(body: Record<string, unknown>, steps: Parameters<typeof createResearchRunner>[0]['steps']) {
    const created = await post('/v1/research', { query: QUERY, depth: 'quick', language: 'en', ...body }).expect(200);
    const runner = createResearchRunner({
      db: t.db,
      services,
      metrics: workerMetrics,
      logger: createSilentLogger(),
      pollIntervalMs: 200,
      ...(steps ? { steps } : {}),
    });
    const job = { id: 'job', attempt: 1, maxAttempts: 3, afterOutage: false, signal: new AbortController().signal };
    await runner({ research_id: created.body.research_id }, job);
    return created.body.research_id as string;
  }

  beforeAll(async () => {
    web = await startFakeWeb({ pages: corpusPages(PHOTOSYNTHESIS_CORPUS) });
    llm = await startFakeLlm();
    const llmEnv = { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model' };
    workerMetrics = createMetrics({ defaultMetrics: false });
    t = await buildTestApp('run-cost', {
      env: { ...llmEnv, ...PRICES },
      // /metrics adds up the worker's counters, as the fleet's totals do.
      fleetMetrics: () => snapshotFleetMetrics(workerMetrics),
    });
    // Another API process of the same service, configured without prices.
    unpriced = await buildTestApp('run-cost-unpriced', { env: llmEnv, database: t.database });
    runnerConfig = testConfig({ ...llmEnv, ...PRICES, CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true' });
    live = createLiveWeb(runnerConfig);
    const client = createLlmClient({
      config: runnerConfig.llm,
      metrics: workerMetrics,
      logger: createSilentLogger(),
      retryBaseMs: 10,
    });
    services = { ...loopbackServices(web.searchUrl, live.services), llm: client };
  }, 60_000);
  afterAll(async () => {
    await live?.close();
    await llm?.close();
    await web?.close();
    await unpriced?.close();
    await t?.close();
  });

  describe('POST /v1/research/estimate before any run', () => {
    it("answers the most the depth's budget allows, resting on no run, and creates none", async () => {
      const res = await post('/v1/research/estimate', { query: QUERY, depth: 'quick' }).expect(200);
      const quick = DEPTH_BUDGETS.quick;
      const tokensIn = quick.max_llm_requests * (quick.max_context_per_llm_call / 4);
      const tokensOut = quick.max_llm_requests * 1000;
      expect(res.body).toEqual({
        depth: 'quick',
        llm_requests: quick.max_llm_requests,
        llm_tokens_input: tokensIn,
        llm_tokens_output: tokensOut,
        estimated_cost_usd: priceOf(tokensIn, tokensOut),
        search_queries: quick.max_search_queries,
        pages_fetched: quick.max_sources,
        seconds: quick.max_research_duration_seconds,
        based_on_runs: 0,
        note: expect.stringContaining('No quick run has completed yet'),
      });
      expect((await get('/v1/research').expect(200)).body.total).toBe(0);
    });

    it('has no price without LLM prices', async () => {
      const res = await post('/v1/research/estimate', { query: QUERY, depth: 'deep' }, unpriced).expect(200);
      expect(res.body).toMatchObject({ depth: 'deep', based_on_runs: 0, estimated_cost_usd: null });
    });
  });

  describe('a run with the LLM', () => {
    let runId: string;
    let during: { state: string; cost: Record<string, unknown> } | undefined;
    let beforeSynthesis: ReturnType<typeof reported>;
    let queriesBefore: number;
    let ownRequests: FakeLlmRequest[];

    beforeAll(async () => {
      const firstRequest = llm.requests.length;
      queriesBefore = web.requests.queries.length;
      const synthesize = stepModule('synthesize');
      runId = await research(
        {},
        {
          // Before the report is written: the status shows what the committed steps spent, as it goes.
          synthesize: async (snapshot: RunSnapshot, ctx: StepContext) => {
            beforeSynthesis = reported(llm.requests.slice(firstRequest));
            during = (await get(`/v1/research/${ctx.run.id}`).expect(200)).body;
            return synthesize.compute(snapshot as never, ctx);
          },
        },
      );
      ownRequests = llm.requests.slice(firstRequest);
    }, 120_000);

    it('shows in its status, while it runs, what the LLM reported so far', () => {
      expect(during?.state).toBe('synthesizing');
      expect(beforeSynthesis.llm_requests).toBeGreaterThan(0);
      expect(during?.cost).toMatchObject({
        ...beforeSynthesis,
        estimated_cost_usd: priceOf(beforeSynthesis.llm_tokens_input, beforeSynthesis.llm_tokens_output),
      });
    });

    it('shows in its status and manifest the calls, tokens, queries, pages and price it spent', async () => {
      const status = (await get(`/v1/research/${runId}`).expect(200)).body;
      expect(status.state).toBe('completed');
      const spent = reported(ownRequests);
      // The report's wording is one call more than what was spent before it.
      expect(spent.llm_requests).toBeGreaterThan(beforeSynthesis.llm_requests);
      const cost = {
        ...spent,
        search_queries: web.requests.queries.length - queriesBefore,
        pages_fetched: status.source_count,
        estimated_cost_usd: priceOf(spent.llm_tokens_input, spent.llm_tokens_output),
        max_llm_tokens: null,
      };
      expect(status.cost).toEqual(cost);
      expect(status.cost.pages_fetched).toBeGreaterThan(0);
      expect(status.cost.search_queries).toBeGreaterThan(0);
      const manifest = (await get(`/v1/research/${runId}/manifest`).expect(200)).body;
      expect(manifest.cost).toEqual(cost);
      expect(manifest.cost.llm_requests).toBe(manifest.budget.max_llm_requests.used);
    });

    it('has no price where the LLM prices are not configured', async () => {
      const status = (await get(`/v1/research/${runId}`, unpriced).expect(200)).body;
      expect(status.cost.estimated_cost_usd).toBeNull();
      expect(status.cost.llm_tokens_input).toBeGreaterThan(0);
      const manifest = (await get(`/v1/research/${runId}/manifest`, unpriced).expect(200)).body;
      expect(manifest.cost.estimated_cost_usd).toBeNull();
    });

    it('stores the budget of its depth as before, without a token cap', async () => {
      const row = await t.db.selectFrom('research_runs').select('budget').where('id', '=', runId).executeTakeFirst();
      expect(row?.budget).toEqual(DEPTH_BUDGETS.quick);
    });

    it('counts its tokens and their price on /metrics', async () => {
      const spent = reported(ownRequests);
      const metrics = (await request(t.app).get('/metrics').expect(200)).text;
      expect(promValue(metrics, 'llm_tokens_input_total')).toBe(spent.llm_tokens_input);
      expect(promValue(metrics, 'llm_tokens_output_total')).toBe(spent.llm_tokens_output);
      expect(promValue(metrics, 'llm_estimated_cost_usd_total')).toBeCloseTo(
        priceOf(spent.llm_tokens_input, spent.llm_tokens_output),
        5,
      );
      expect(promValue(metrics, 'research_llm_tokens_count')).toBe(1);
      expect(promValue(metrics, 'research_llm_tokens_sum')).toBe(spent.llm_tokens_input + spent.llm_tokens_output);
    });
  });

  describe('max_llm_tokens', () => {
    let runId: string;
    let ownRequests: FakeLlmRequest[];

    beforeAll(async () => {
      const firstRequest = llm.requests.length;
      // The plan's one call reaches the cap: nothing after it may ask the LLM.
      runId = await research({ max_llm_tokens: 1 }, undefined);
      ownRequests = llm.requests.slice(firstRequest);
    }, 120_000);

    it('starts no LLM request once the tokens reach it, and the run still completes', async () => {
      expect(ownRequests.map((r) => r.schemaName)).toEqual(['research_plan']);
      const status = (await get(`/v1/research/${runId}`).expect(200)).body;
      expect(status).toMatchObject({ state: 'completed', is_completed: true });
      expect(status.claim_count).toBeGreaterThan(0);
      expect(status.cost).toMatchObject({ ...reported(ownRequests), max_llm_tokens: 1 });
    });

    it('says in the report and the manifest that the token budget was spent', async () => {
      const report = (await get(`/v1/research/${runId}/report`).expect(200)).body;
      expect(report.findings.length).toBeGreaterThan(0);
      const spent = report.uncertainties.filter((u: string) => u.includes('LLM token budget spent'));
      expect(spent.length).toBeGreaterThan(0);
      expect(spent.join(' ')).toContain('Claim extraction (round 1): the language model was not usable (LLM token');
      expect(spent.join(' ')).toContain('Report (round 1): the language model was not usable (LLM token budget spent)');
      const manifest = (await get(`/v1/research/${runId}/manifest`).expect(200)).body;
      const steps = manifest.fallbacks
        .filter((f: { reason: string }) => f.reason === 'tokens')
        .map((f: { step: string }) => f.step);
      expect(steps).toEqual(expect.arrayContaining(['analyze', 'synthesize']));
    });
  });

  describe('POST /v1/research/estimate after runs', () => {
    it('answers the medians of the completed runs of the depth, and how many', async () => {
      const rows = await t.db
        .selectFrom('research_runs')
        .select(['usage', 'source_count', 'started_at', 'finished_at'])
        .where('depth', '=', 'quick')
        .where('state', '=', 'completed')
        .execute();
      expect(rows).toHaveLength(2);
      // The median of two is their mean, rounded.
      const mid = (f: (r: (typeof rows)[number]) => number) => Math.round((f(rows[0]!) + f(rows[1]!)) / 2);
      const tokensIn = mid((r) => r.usage.llm_tokens_input ?? 0);
      const tokensOut = mid((r) => r.usage.llm_tokens_output ?? 0);
      const res = await post('/v1/research/estimate', { query: 'Anything at all', depth: 'quick' }).expect(200);
      expect(res.body).toEqual({
        depth: 'quick',
        llm_requests: mid((r) => r.usage.llm_requests ?? 0),
        llm_tokens_input: tokensIn,
        llm_tokens_output: tokensOut,
        estimated_cost_usd: priceOf(tokensIn, tokensOut),
        search_queries: mid((r) => r.usage.search_queries ?? 0),
        pages_fetched: mid((r) => r.source_count),
        seconds: mid((r) => Math.round((r.finished_at!.getTime() - r.started_at!.getTime()) / 1000)),
        based_on_runs: 2,
        note: null,
      });
      expect(res.body.llm_tokens_input).toBeGreaterThan(0);
      // Another depth has no run of its own yet.
      const normal = await post('/v1/research/estimate', { query: QUERY }).expect(200);
      expect(normal.body).toMatchObject({ depth: 'normal', based_on_runs: 0 });
    });
  });

  describe('refusals', () => {
    it.each([
      [0, 'max_llm_tokens: must be at least 1'],
      [-5, 'max_llm_tokens: must be at least 1'],
      [1.5, 'max_llm_tokens: must be an integer'],
      ['1000', 'max_llm_tokens: must be an integer'],
      [100_000_001, 'max_llm_tokens: must be at most 100000000'],
    ])('refuses max_llm_tokens %p with 422 and creates no run', async (value, detail) => {
      const before = (await get('/v1/research').expect(200)).body.total;
      const res = await post('/v1/research', { query: QUERY, max_llm_tokens: value }).expect(422);
      expect(res.body).toEqual({ detail });
      expect((await get('/v1/research').expect(200)).body.total).toBe(before);
    });

    it('validates the estimate as the create body: 422 for a field, 400 for a depth, 401 without a key', async () => {
      expect((await post('/v1/research/estimate', { depth: 'quick' }).expect(422)).body.detail).toMatch(/^query: /);
      expect((await post('/v1/research/estimate', { query: '   ' }).expect(422)).body.detail).toMatch(/^query: /);
      const depth = await post('/v1/research/estimate', { query: QUERY, depth: 'abyssal' }).expect(400);
      expect(depth.body.detail).toContain("'abyssal'");
      await request(t.app).post('/v1/research/estimate').send({ query: QUERY }).expect(401);
    });
  });
});
