import { SelectQueryNode, TableNode } from 'kysely';
import { hideRetentionRecord, hideRun, insertRetentionRecord, type Database } from '@research/database';
import { createMetrics, createSilentLogger, type Metrics } from '@research/observability';
import {
  RESEARCH_STEPS,
  createResearchRunner,
  fetchStep,
  planStep,
  searchStep,
  stepsOfRound,
  type AnyStepModule,
  type PipelineSteps,
  type ResearchServices,
  type RunSnapshot,
  type StepContext,
} from '@research/pipeline';
import type { ResearchJobContext } from '@research/queue';
import { normalizeWhitespace, type ReportBody } from '@research/core';
import { graphInputsKey, type RunNote } from '@research/engine';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createWorkerEngine, type WorkerEngine } from '../support/engine';
import { listenDroppingEveryConnection } from '../support/loopback';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { metricValue } from './metrics-reading';
import {
  ROUND_STATES,
  inProcessWorkerConfig,
  installStateLog,
  insertTestRun,
  recordCounts,
  runRow,
  statesOf,
  waitForState,
} from './worker-fixtures';

function job(overrides: Partial<ResearchJobContext> = {}): ResearchJobContext {
  return {
    id: 'job',
    attempt: 1,
    maxAttempts: 5,
    afterOutage: false,
    signal: new AbortController().signal,
    ...overrides,
  };
}

async function hideAsTheApiDoes(db: Database, runId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await hideRun(trx, runId);
    await hideRetentionRecord(trx, runId);
  });
}

/**
 * A page no query of round 1 finds (it has none of "photosynthesis", "convert", "light"): round 2 asks
 * about the corpus's planted contradiction (whether photosynthesis occurs in animals) and finds it.
 */
const ROUND_TWO_PAGE = {
  title: 'Heterotroph',
  paragraphs: [
    'A heterotroph is an organism that cannot make its own food and must obtain energy by eating other organisms.',
    'Most animals, fungi and many bacteria are heterotrophs; in animals this feeding can occur only by taking in organic matter.',
  ],
};

describe('research orchestrator', () => {
  let t: TestDatabase;
  let wiki: FakeWiki;
  let services: ResearchServices;
  const workers: WorkerEngine[] = [];
  /** What a worker process runs, its crawler counting on `metrics` (the worker's one registry). */
  const workerEngine = (metrics?: Metrics, env: Record<string, string> = {}) => {
    const worker = createWorkerEngine(inProcessWorkerConfig(wiki.apiUrl, env), { db: t.db, metrics });
    workers.push(worker);
    return worker.services;
  };

  beforeAll(async () => {
    t = await createTestDatabase('orchestrator');
    await installStateLog(t.db);
    wiki = await startFakeWiki({ pages: [...PHOTOSYNTHESIS_CORPUS, ROUND_TWO_PAGE] });
    services = workerEngine();
  });
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.close()));
    await wiki?.close();
    await t?.drop();
  });
  afterEach(() => {
    wiki.pageLatencyMs = 0;
  });

  /** The abort of the last fetch step's signal (its reason names why), and that step's end. */
  let fetchAborted: unknown;
  let fetchEnded: Promise<unknown> = Promise.resolve();
  /** The real fetch step, recording why its signal was aborted and when it ended. */
  const fetchRecordingItsAbort: PipelineSteps['fetch'] = (snapshot, ctx) => {
    fetchAborted = undefined;
    ctx.signal.addEventListener('abort', () => (fetchAborted = ctx.signal.reason), { once: true });
    const fetching = fetchStep(snapshot, ctx);
    fetchEnded = fetching.catch(() => undefined);
    return fetching;
  };

  function runner(
    options: {
      services?: ResearchServices;
      steps?: Partial<PipelineSteps>;
      metrics?: Metrics;
      pollIntervalMs?: number;
      db?: Database;
    } = {},
  ) {
    const metrics = options.metrics ?? createMetrics({ defaultMetrics: false });
    const run = createResearchRunner({
      db: options.db ?? t.db,
      services: options.services ?? services,
      ...(options.steps ? { steps: options.steps } : {}),
      metrics,
      logger: createSilentLogger(),
      pollIntervalMs: options.pollIntervalMs ?? 100,
    });
    return { run, metrics };
  }

  it('takes a quick run from created through every state to completed, with every record written', async () => {
    // One metrics registry for the runner and the crawler, as in a worker process.
    const processMetrics = createMetrics({ defaultMetrics: false });
    const { run: execute, metrics } = runner({ services: workerEngine(processMetrics), metrics: processMetrics });
    const run = await insertTestRun(t.db, { depth: 'quick' });
    await expect(execute({ research_id: run.id, request_id: run.request_id! }, job())).resolves.toBe('done');

    expect(await statesOf(t.db, run.id)).toEqual(['created', 'planning', ...ROUND_STATES, 'completed']);
    const done = await runRow(t.db, run.id);
    expect(done.state).toBe('completed');
    expect(done.plan).toMatchObject({ query: run.query, search_queries: expect.any(Array) });
    expect(done.checkpoint).toEqual({
      round: 1,
      done: ['plan', 'search', 'fetch', 'analyze', 'compare', 'synthesize'],
      rounds: 1,
      notes: expect.any(Array),
    });
    // The events every step recorded for the report are all kept in the checkpoint, in step order.
    const events = (done.checkpoint as unknown as { notes: RunNote[] }).notes;
    expect(events.map((e) => `${e.kind}:${'step' in e ? e.step : 'round' in e ? e.round : ''}`)).toEqual([
      'engine:plan',
      'search:1',
      'bridge:1',
      'fetch:1',
      'engine:analyze',
      'engine:compare',
      'engine:synthesize',
    ]);

    const sources = await t.db.selectFrom('sources').selectAll().where('run_id', '=', run.id).execute();
    const claims = await t.db.selectFrom('claims').selectAll().where('run_id', '=', run.id).execute();
    const evidence = await t.db.selectFrom('evidence_scores').selectAll().where('run_id', '=', run.id).execute();
    const report = await t.db.selectFrom('reports').selectAll().where('run_id', '=', run.id).executeTakeFirstOrThrow();
    // Every fake page lives on one host: the quick budget's max_pages_per_domain (2) caps the sources (the fetch
    // step asks the crawler for no page of a site that gave its two).
    expect(sources).toHaveLength(2);
    expect(new Set(sources.map((s) => s.url)).size).toBe(sources.length);
    // A loopback host is no known reference site: the crawler types the pages 'other'. Each source has the
    // title of the page it was read from.
    for (const s of sources) {
      const page = decodeURIComponent(new URL(s.url).pathname.replace('/wiki/', '')).replace(/_/g, ' ');
      expect(s).toMatchObject({ source_type: 'other', domain: '127.0.0.1', title: `${page} - Wikipedia` });
    }
    // Page chrome (scripts, navigation, footer) is not part of a source's text.
    expect(sources.some((s) => /tracking|Random article|Creative Commons/.test(s.content))).toBe(false);
    expect(claims.length).toBeGreaterThan(2);
    const byId = new Map(sources.map((s) => [s.id, s]));
    for (const claim of claims) {
      const source = byId.get(claim.source_id);
      expect(source).toBeDefined();
      expect(normalizeWhitespace(source!.content)).toContain(normalizeWhitespace(claim.evidence_span));
      expect(claim.confidence).toBeGreaterThanOrEqual(0);
      expect(claim.confidence).toBeLessThanOrEqual(1);
    }
    expect(evidence.map((e) => e.claim_id).sort()).toEqual(claims.map((c) => c.id).sort());
    for (const e of evidence) {
      for (const score of [
        e.source_independence_score,
        e.primary_source_proximity,
        e.cross_source_support,
        e.contradiction_level,
        e.evidence_directness,
        e.date_relevance_score,
      ]) {
        expect(score).toBeGreaterThanOrEqual(0);
        expect(score).toBeLessThanOrEqual(1);
      }
    }
    const body = report.report as {
      research_id: string;
      findings: Array<{ source_ids: string[] }>;
      source_statistics: Record<string, number>;
      generated_at: string;
    };
    expect(body.research_id).toBe(run.id);
    expect(body.findings.length).toBeGreaterThan(0);
    for (const finding of body.findings) {
      expect(finding.source_ids.length).toBeGreaterThan(0);
      for (const id of finding.source_ids) expect(byId.has(id)).toBe(true);
    }
    expect(body.source_statistics.total_sources).toBe(sources.length);
    expect(Number.isNaN(Date.parse(body.generated_at))).toBe(false);

    expect(done.search_count).toBeGreaterThan(0);
    expect(done.source_count).toBe(sources.length);
    expect(done.claim_count).toBe(claims.length);
    expect(await metricValue(metrics, 'research_completed_total')).toBe(1);
    expect(await metricValue(metrics, 'sources_fetched_total')).toBe(sources.length);
    expect(await metricValue(metrics, 'claims_extracted_total')).toBe(claims.length);
    expect(await metricValue(metrics, 'search_queries_total')).toBe(
      (done.usage as Record<string, number>).search_queries,
    );
    expect(await metricValue(metrics, 'sources_discovered_total')).toBe(done.search_count);
    expect(await metricValue(metrics, 'research_duration_seconds_count')).toBe(1);
    expect(await metricValue(metrics, 'research_failed_total')).toBe(0);
  });

  it('does two research rounds for a normal run, passing through the round states twice', async () => {
    const { run: execute } = runner();
    const run = await insertTestRun(t.db, { depth: 'normal' });
    await execute({ research_id: run.id }, job());
    expect(await statesOf(t.db, run.id)).toEqual([
      'created',
      'planning',
      ...ROUND_STATES,
      ...ROUND_STATES,
      'completed',
    ]);
    const done = await runRow(t.db, run.id);
    expect(done.checkpoint).toMatchObject({ round: 2, rounds: 2 });
    const rounds = await t.db
      .selectFrom('search_results')
      .select('round')
      .distinct()
      .where('run_id', '=', run.id)
      .execute();
    // Round 2's hits (ROUND_TWO_PAGE) are recorded under round 2.
    expect(rounds.map((r) => r.round).sort()).toEqual([1, 2]);
    expect(await t.db.selectFrom('reports').select('run_id').where('run_id', '=', run.id).execute()).toHaveLength(1);
  });

  it('hands each step only the parts of the run it declares, as committed before it', async () => {
    type Handed = {
      step: string;
      round: number;
      parts: string[];
      held: { sources: number; claims: number };
      /** Whether the graph handed to the step is the compare step's of the claims and sources it was handed. */
      graphOfItsClaims?: boolean;
    };
    const handed: Array<Handed & Partial<Handed['held']>> = [];
    const watching = Object.fromEntries(
      RESEARCH_STEPS.map((m: AnyStepModule) => [
        m.name,
        async (snapshot: RunSnapshot, ctx: StepContext) => {
          const { sources, claims } = await recordCounts(t.db, ctx.run.id);
          handed.push({
            step: m.name,
            round: ctx.round,
            parts: Object.keys(snapshot).sort(),
            held: { sources, claims },
            ...(snapshot.sources ? { sources: snapshot.sources.length } : {}),
            ...(snapshot.claims ? { claims: snapshot.claims.length } : {}),
            ...(snapshot.graph !== undefined
              ? { graphOfItsClaims: snapshot.graph?.inputs === graphInputsKey(snapshot.claims, snapshot.sources) }
              : {}),
          });
          return m.compute(snapshot, ctx);
        },
      ]),
    ) as Partial<PipelineSteps>;
    const run = await insertTestRun(t.db, { depth: 'normal' });
    await expect(runner({ steps: watching }).run({ research_id: run.id }, job())).resolves.toBe('done');
    expect((await runRow(t.db, run.id)).state).toBe('completed');

    const declared = (step: string) => [...RESEARCH_STEPS.find((m) => m.name === step)!.reads].sort();
    expect(handed.map((h) => `${h.step}#${h.round}`)).toEqual([
      ...stepsOfRound(1).map((step) => `${step}#1`),
      ...stepsOfRound(2).map((step) => `${step}#2`),
    ]);
    for (const h of handed) {
      expect({ step: h.step, parts: h.parts }).toEqual({ step: h.step, parts: declared(h.step) });
      // What a step is handed is what the run holds, read back before the step.
      if (h.sources !== undefined)
        expect({ step: h.step, sources: h.sources }).toEqual({ step: h.step, sources: h.held.sources });
      if (h.claims !== undefined)
        expect({ step: h.step, claims: h.claims }).toEqual({ step: h.step, claims: h.held.claims });
    }
    expect(declared('plan')).toEqual([]);
    expect(declared('fetch')).toEqual(['searchResults', 'sources']);
    // Round 2's search reads the claims and sources of round 1 (its gaps).
    expect(handed.find((h) => h.step === 'search' && h.round === 2)!.claims).toBeGreaterThan(0);
    // Synthesize reads the graph the compare step before it stored, not one of its own.
    expect(handed.filter((h) => h.step === 'synthesize').map((h) => h.graphOfItsClaims)).toEqual([true, true]);
  });

  it('fails the run with the exception text and the failed step when a step throws, keeping the plan', async () => {
    const broken: Partial<PipelineSteps> = {
      analyze: async () => {
        throw new Error('analyzer exploded');
      },
    };
    const { run: execute, metrics } = runner({ steps: broken });
    const run = await insertTestRun(t.db);
    await execute({ research_id: run.id }, job());
    const failed = await runRow(t.db, run.id);
    expect(failed.state).toBe('failed');
    expect(failed.metadata).toEqual({ error: 'analyzer exploded', failed_step: 'analyze' });
    expect(failed.plan).not.toBeNull();
    expect(failed.source_count).toBeGreaterThan(0);
    expect(await statesOf(t.db, run.id)).toEqual([
      'created',
      'planning',
      'searching',
      'fetching',
      'analyzing',
      'failed',
    ]);
    expect(await t.db.selectFrom('reports').select('run_id').where('run_id', '=', run.id).execute()).toHaveLength(0);
    expect(await metricValue(metrics, 'research_failed_total')).toBe(1);
    expect(await metricValue(metrics, 'research_completed_total')).toBe(0);
    expect(await metricValue(metrics, 'research_duration_seconds_count')).toBe(1);
  });

  it('fails a run whose duration budget runs out inside a step, naming that step', async () => {
    // Pages that answer after the crawler's own timeout (10 s): only the budget's abort ends the fetch step
    // as the assertions below see it, however slow the machine.
    wiki.pageLatencyMs = 60_000;
    const { run: execute, metrics } = runner({ steps: { fetch: fetchRecordingItsAbort } });
    const run = await insertTestRun(t.db, { budget: { max_research_duration_seconds: 1 } });
    await execute({ research_id: run.id }, job());
    expect(fetchAborted).toMatchObject({ reason: 'budget' });
    const failed = await runRow(t.db, run.id);
    expect(failed.state).toBe('failed');
    expect(failed.metadata).toEqual({ error: 'Research duration budget of 1 s exceeded', failed_step: 'fetch' });
    expect(await metricValue(metrics, 'research_failed_total')).toBe(1);
  });

  it('keeps a run cancelled when it is deleted while the worker is inside a slow step', async () => {
    // Pages slower than the crawler's timeout: only the poll that finds the run hidden ends the step.
    wiki.pageLatencyMs = 60_000;
    const { run: execute, metrics } = runner({ steps: { fetch: fetchRecordingItsAbort } });
    const run = await insertTestRun(t.db);
    await insertRetentionRecord(t.db, { research_id: run.id, owner_user_id: null, query: run.query });
    const working = execute({ research_id: run.id }, job());
    await waitForState(t.db, run.id, ['fetching']);
    await hideAsTheApiDoes(t.db, run.id);
    await expect(working).resolves.toBe('done');
    expect(fetchAborted).toMatchObject({ reason: 'cancelled' });

    const cancelled = await runRow(t.db, run.id);
    expect(cancelled.state).toBe('cancelled');
    expect(cancelled.is_hidden).toBe(true);
    expect(cancelled.checkpoint).toMatchObject({ done: ['plan', 'search'] });
    const counts = await recordCounts(t.db, run.id);
    expect(counts).toMatchObject({ sources: 0, claims: 0, evidence: 0, reports: 0 });
    // Nothing writes to the run afterwards, not even the step the runner left behind once it has ended.
    await fetchEnded;
    expect(await runRow(t.db, run.id)).toEqual(cancelled);
    expect(await statesOf(t.db, run.id)).toEqual(['created', 'planning', 'searching', 'fetching', 'cancelled']);
    expect(await metricValue(metrics, 'research_completed_total')).toBe(0);
    expect(await metricValue(metrics, 'research_failed_total')).toBe(0);
  });

  it('refuses the commit of a step that finished after the run was cancelled', async () => {
    // A step that ignores its abort signal and no polling: only the commit's conditions stand in the way.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stubborn: Partial<PipelineSteps> = {
      fetch: async (snapshot, ctx) => {
        const sources = await fetchStep(snapshot, { ...ctx, signal: new AbortController().signal });
        await gate;
        return sources;
      },
    };
    const { run: execute } = runner({ steps: stubborn, pollIntervalMs: 60_000 });
    const run = await insertTestRun(t.db);
    const working = execute({ research_id: run.id }, job());
    await waitForState(t.db, run.id, ['fetching']);
    await hideAsTheApiDoes(t.db, run.id);
    release();
    await expect(working).resolves.toBe('done');
    const cancelled = await runRow(t.db, run.id);
    expect(cancelled.state).toBe('cancelled');
    expect(await recordCounts(t.db, run.id)).toMatchObject({ sources: 0, claims: 0, reports: 0 });
  });

  it('does nothing for a run that is hidden, finished or missing', async () => {
    const { run: execute } = runner();
    const hidden = await insertTestRun(t.db);
    await hideRun(t.db, hidden.id);
    await expect(execute({ research_id: hidden.id }, job())).resolves.toBe('done');
    expect((await runRow(t.db, hidden.id)).state).toBe('cancelled');
    await expect(execute({ research_id: '00000000-0000-4000-8000-000000000000' }, job())).resolves.toBe('done');
  });

  it('hands a run back on shutdown and resumes it after the last committed step, with no record twice', async () => {
    const clean = await insertTestRun(t.db, { depth: 'normal' });
    await runner().run({ research_id: clean.id }, job());
    const cleanCounts = await recordCounts(t.db, clean.id);

    let plans = 0;
    const counting: Partial<PipelineSteps> = { plan: async (snapshot, ctx) => (plans++, planStep(snapshot, ctx)) };
    wiki.pageLatencyMs = 1500;
    const run = await insertTestRun(t.db, { depth: 'normal' });
    const shutdown = new AbortController();
    const first = runner({ steps: counting }).run({ research_id: run.id }, job({ signal: shutdown.signal }));
    await waitForState(t.db, run.id, ['fetching']);
    shutdown.abort('shutdown');
    await expect(first).resolves.toBe('handed_back');
    const handedBack = await runRow(t.db, run.id);
    expect(handedBack.state).toBe('fetching');
    expect(handedBack.checkpoint).toMatchObject({ round: 1, done: ['plan', 'search'] });
    expect(handedBack.attempts).toBe(0);

    wiki.pageLatencyMs = 0;
    await expect(runner({ steps: counting }).run({ research_id: run.id }, job())).resolves.toBe('done');
    const done = await runRow(t.db, run.id);
    expect(done.state).toBe('completed');
    expect(plans).toBe(1);
    expect(done.attempts).toBe(1);
    expect(await recordCounts(t.db, run.id)).toEqual(cleanCounts);
    expect(cleanCounts.sources).toBe(cleanCounts.distinctSourceUrls);
  });

  it('finishes a run checkpointed with the string notes of the version before typed events', async () => {
    wiki.pageLatencyMs = 1500;
    const run = await insertTestRun(t.db, { depth: 'quick' });
    const shutdown = new AbortController();
    const first = runner().run({ research_id: run.id }, job({ signal: shutdown.signal }));
    await waitForState(t.db, run.id, ['fetching']);
    shutdown.abort('shutdown');
    await expect(first).resolves.toBe('handed_back');
    wiki.pageLatencyMs = 0;
    // The checkpoint as the version before typed events wrote it, with a remark in words.
    const legacy = {
      round: 1,
      done: ['plan', 'search'],
      rounds: 1,
      notes: ['engine:plan:1:llm', 'A remark in words.'],
    };
    await t.db
      .updateTable('research_runs')
      .set({ checkpoint: JSON.stringify(legacy) })
      .where('id', '=', run.id)
      .execute();

    await expect(runner().run({ research_id: run.id }, job())).resolves.toBe('done');
    const done = await runRow(t.db, run.id);
    expect(done.state).toBe('completed');
    const events = (done.checkpoint as unknown as { notes: RunNote[] }).notes;
    expect(events.slice(0, 2)).toEqual([
      { kind: 'engine', step: 'plan', round: 1, mode: 'llm' },
      { kind: 'remark', text: 'A remark in words.' },
    ]);
    const { report } = await t.db
      .selectFrom('reports')
      .select('report')
      .where('run_id', '=', run.id)
      .executeTakeFirstOrThrow();
    expect((report as ReportBody).methodology).toMatch(/Planning: language model/);
    expect((report as ReportBody).uncertainties).toContain('A remark in words.');
  });

  it('hands a run back without committing the step when the shutdown lands while the step reads its snapshot', async () => {
    const clean = await insertTestRun(t.db, { depth: 'normal' });
    await runner().run({ research_id: clean.id }, job());
    const cleanCounts = await recordCounts(t.db, clean.id);

    // The shutdown arrives after the loop's own check and before the fetch starts: while the runner reads
    // what the fetch reads of the run (the only select of sources between the search's commit and the fetch).
    const shutdown = new AbortController();
    let searched = false;
    const watching: Partial<PipelineSteps> = {
      search: async (snapshot, ctx) => {
        const hits = await searchStep(snapshot, ctx);
        searched = true;
        return hits;
      },
    };
    const db = t.db.withPlugin({
      transformQuery({ node }) {
        const from = SelectQueryNode.is(node) ? node.from?.froms[0] : undefined;
        const table = from && TableNode.is(from) ? from.table.identifier.name : undefined;
        if (searched && table === 'sources') shutdown.abort('shutdown');
        return node;
      },
      transformResult: async ({ result }) => result,
    });
    const run = await insertTestRun(t.db, { depth: 'normal' });
    await expect(
      runner({ steps: watching, db }).run({ research_id: run.id }, job({ signal: shutdown.signal })),
    ).resolves.toBe('handed_back');
    const handedBack = await runRow(t.db, run.id);
    expect(handedBack.checkpoint).toMatchObject({ round: 1, done: ['plan', 'search'] });
    expect((await recordCounts(t.db, run.id)).sources).toBe(0);

    await expect(runner().run({ research_id: run.id }, job())).resolves.toBe('done');
    expect((await runRow(t.db, run.id)).state).toBe('completed');
    expect(await recordCounts(t.db, run.id)).toEqual(cleanCounts);
  });

  it('ends a run that was picked up too many times as failed instead of retrying it forever', async () => {
    const { run: execute, metrics } = runner();
    const run = await insertTestRun(t.db, { attempts: 5 });
    await execute({ research_id: run.id }, job());
    const failed = await runRow(t.db, run.id);
    expect(failed.state).toBe('failed');
    expect(failed.metadata).toEqual({ error: 'Research run abandoned after 5 attempts', failed_step: 'plan' });
    expect(await metricValue(metrics, 'research_failed_total')).toBe(1);
  });

  it('goes on with the attempt an outage interrupted: a pick-up after one neither counts nor abandons the run', async () => {
    const { run: execute } = runner();
    // Its fifth pick-up met an outage; the queue says so when it tries again.
    const run = await insertTestRun(t.db, { attempts: 5 });
    await expect(execute({ research_id: run.id }, job({ afterOutage: true }))).resolves.toBe('done');
    const done = await runRow(t.db, run.id);
    expect(done.state).toBe('completed');
    expect(done.attempts).toBe(5);
  });

  it('fails the run with a clear error when the search API fails for every query', async () => {
    wiki.failSearch = true;
    try {
      // Short retry delays: every query is still tried SEARCH_MAX_RETRIES + 1 (4) times.
      const { run: execute } = runner({ services: workerEngine(undefined, { SEARCH_RETRY_BASE_MS: '10' }) });
      const run = await insertTestRun(t.db);
      await execute({ research_id: run.id }, job());
      const failed = await runRow(t.db, run.id);
      expect(failed.state).toBe('failed');
      expect(failed.metadata).toEqual({
        failed_step: 'search',
        error: 'Search provider wikipedia is unavailable: HTTP 500; gave up after 4 attempts',
      });
      expect(failed.plan).not.toBeNull();
    } finally {
      wiki.failSearch = false;
    }
  });

  it('fails a run that cannot reach its search provider with what to do without a network', async () => {
    const unreachable = await listenDroppingEveryConnection();
    try {
      const { run: execute } = runner({
        services: workerEngine(undefined, {
          WIKIPEDIA_API_URL: `http://127.0.0.1:${unreachable.port}/w/api.php`,
          SEARCH_RETRY_BASE_MS: '10',
        }),
      });
      const run = await insertTestRun(t.db);
      await execute({ research_id: run.id }, job());
      const failed = await runRow(t.db, run.id);
      expect(failed.state).toBe('failed');
      expect(failed.metadata).toMatchObject({ failed_step: 'search' });
      expect(failed.metadata.error).toMatch(/^Search provider wikipedia is unavailable: .*closed the connection/);
      expect(failed.metadata.error).toContain('SEARCH_PROVIDER=local with LOCAL_CORPUS_DIR');
    } finally {
      await unreachable.close();
    }
  });
});
