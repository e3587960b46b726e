import { normalizeWhitespace, type AppConfig, type Depth, type ReportBody } from '@research/core';
import type { Database, RunRow } from '@research/database';
import type { RunNote } from '@research/engine';
import { createLlmClient } from '@research/llm';
import type { ResearchServices } from '@research/pipeline';
import { createMetrics, createSilentLogger, type Metrics } from '@research/observability';
import { createResearchRunner } from '@research/pipeline';
import type { ResearchJobContext } from '@research/queue';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createLiveWeb, type LiveWeb } from '../support/engine';
import { startFakeLlm, plausibleResponder, stanceJudgeResponder, type FakeLlm } from '../fakes/fake-llm';
import { startFakeWeb, type FakeWeb, type FakeWebPage } from '../fakes/fake-web';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { metricValue } from '../worker/metrics-reading';
import { inProcessWorkerConfig, insertTestRun, runRow, testConfig } from '../worker/worker-fixtures';
import { describeWithData } from '../support/data-dir';
import {
  HOTPOT_FILE,
  MODEL_STANCE_QUERY,
  MODEL_STANCE_REFUTING,
  MODEL_STANCE_SUPPORTING,
  PLANTED_FALSE,
  PLANTED_QUERY,
  PLANTED_TRUE,
  STANCE_QUERY,
  STANCE_REFUTING,
  STANCE_SUPPORTING,
  corpusPages,
  hotpotItems,
  hotpotPages,
  loopbackServices,
  openHotpotItems,
  plantedContradictionPages,
  plantedModelStancePages,
  plantedStancePages,
} from './engine-support';

function job(): ResearchJobContext {
  return { id: 'job', attempt: 1, maxAttempts: 3, afterOutage: false, signal: new AbortController().signal };
}

interface Outcome {
  run: RunRow;
  sources: Array<{ id: string; url: string; title: string | null; content: string }>;
  claims: Array<{ id: string; source_id: string; evidence_span: string; claim_text: string; stance: string | null }>;
  evidence: Array<{ claim_id: string; contradiction_level: number }>;
  report: ReportBody & { research_id: string };
  metrics: Metrics;
}

async function research(
  db: Database,
  servicesFor: (metrics: Metrics) => ResearchServices,
  options: { query: string; depth?: Depth; language?: string; budget?: Record<string, number> },
): Promise<Outcome> {
  const metrics = createMetrics({ defaultMetrics: false });
  const runner = createResearchRunner({
    db,
    services: servicesFor(metrics),
    metrics,
    logger: createSilentLogger(),
    pollIntervalMs: 200,
  });
  const inserted = await insertTestRun(db, {
    query: options.query,
    depth: options.depth ?? 'quick',
    language: options.language ?? 'en',
    ...(options.budget ? { budget: options.budget } : {}),
  });
  await runner({ research_id: inserted.id }, job());
  const run = await runRow(db, inserted.id);
  const sources = await db.selectFrom('sources').selectAll().where('run_id', '=', run.id).execute();
  const claims = await db.selectFrom('claims').selectAll().where('run_id', '=', run.id).execute();
  const evidence = await db.selectFrom('evidence_scores').selectAll().where('run_id', '=', run.id).execute();
  const report = await db.selectFrom('reports').selectAll().where('run_id', '=', run.id).executeTakeFirst();
  return { run, sources, claims, evidence, report: report?.report as Outcome['report'], metrics };
}

/** The properties every finished run has, whatever the engine. */
function expectSoundRun(o: Outcome): void {
  expect(o.run.metadata).toEqual(expect.not.objectContaining({ error: expect.anything() }));
  expect(o.run.state).toBe('completed');
  expect(o.sources.length).toBeGreaterThan(0);
  expect(o.claims.length).toBeGreaterThan(0);
  expect(o.evidence.map((e) => e.claim_id).sort()).toEqual(o.claims.map((c) => c.id).sort());
  const byId = new Map(o.sources.map((s) => [s.id, s]));
  // Grounding: every claim's span is found in its source's text.
  const grounded = o.claims.filter((c) =>
    normalizeWhitespace(byId.get(c.source_id)?.content ?? '').includes(normalizeWhitespace(c.evidence_span)),
  );
  expect(grounded.length / o.claims.length).toBe(1);
  expect(o.report.findings.length).toBeGreaterThan(0);
  for (const finding of o.report.findings) {
    expect(finding.source_ids.length).toBeGreaterThan(0);
    for (const id of finding.source_ids) expect(byId.has(id)).toBe(true);
    expect(finding.confidence).toBeGreaterThanOrEqual(0);
    expect(finding.confidence).toBeLessThanOrEqual(1);
  }
  // Every summary sentence ends citing findings that exist, as [F1] (split after the citations: source sentences
  // hold abbreviations like "U.S." that no simple splitter gets right).
  for (const sentence of o.report.summary.split(/(?<=\]\.)\s+/)) {
    const cited = [...sentence.matchAll(/\[F(\d+)\]/g)].map((m) => Number(m[1]));
    expect(sentence).toMatch(/(\[F\d+\])+\.$/);
    for (const n of cited) expect(n).toBeLessThanOrEqual(o.report.findings.length);
  }
  expect(o.report.source_statistics).toMatchObject({ total_sources: o.sources.length });
  expect(o.report.methodology.length).toBeGreaterThan(50);
}

function reportText(report: ReportBody): string {
  return [report.summary, ...report.findings.map((f) => f.text)].join(' ').toLowerCase();
}

/** The pipeline's steps over `services`, without an LLM or with the one at `config.llm`. */
function engines(config: () => AppConfig, services: () => ResearchServices) {
  const extractive = (): ResearchServices => ({ ...services(), llm: null });
  const withLlm = (metrics: Metrics): ResearchServices => ({
    ...services(),
    llm: createLlmClient({ config: config().llm, metrics, logger: createSilentLogger(), retryBaseMs: 10 }),
  });
  return { extractive, withLlm };
}

/** A fake web of `pages` and a fake LLM, with the worker's crawler (loopback allowed) for the pages. */
function loopbackSetup(name: string, pages: () => FakeWebPage[]) {
  const s = {} as {
    t: TestDatabase;
    web: FakeWeb;
    llm: FakeLlm;
    config: AppConfig;
    live: LiveWeb;
    services: ResearchServices;
  };
  beforeAll(async () => {
    s.t = await createTestDatabase(name);
    s.web = await startFakeWeb({ pages: pages() });
    s.llm = await startFakeLlm();
    s.config = testConfig({
      // The fake web's pages live on loopback, which the crawler refuses by default.
      CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
      LLM_BASE_URL: s.llm.baseUrl,
      LLM_MODEL: 'fake-model',
      LLM_MAX_CONCURRENCY: '3',
      CRAWLER_TIMEOUT_MS: '5000',
    });
    s.live = createLiveWeb(s.config);
    s.services = loopbackServices(s.web.searchUrl, s.live.services);
  });
  afterAll(async () => {
    await s.live?.close();
    await s.llm?.close();
    await s.web?.close();
    await s.t?.drop();
  });
  afterEach(() => {
    s.llm.script.length = 0;
    s.llm.responder = plausibleResponder();
  });
  return s;
}

const PHOTOSYNTHESIS_QUERY = 'How does photosynthesis convert light energy in plants?';

describe('research runs that dispute the question', () => {
  const s = loopbackSetup('stance', () => [...corpusPages(PHOTOSYNTHESIS_CORPUS), ...plantedStancePages()]);
  const { extractive } = engines(
    () => s.config,
    () => s.services,
  );

  it('sets a page that refutes the question against one that supports it (extractive engine)', async () => {
    const o = await research(s.t.db, extractive, { query: STANCE_QUERY });
    expectSoundRun(o);
    const dispute = o.report.disagreements.find((d) => d.claim === 'the Arctic sea ice extent shrinking every decade');
    expect(dispute).toBeDefined();
    const positions = (dispute!.positions ?? []) as Array<{ view: string; stance?: string; source_id?: string }>;
    expect(positions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ stance: 'supports', view: STANCE_SUPPORTING }),
        expect.objectContaining({ stance: 'refutes', view: STANCE_REFUTING }),
      ]),
    );
    const refuting = o.claims.find((c) => c.claim_text === STANCE_REFUTING)!;
    const level = o.evidence.find((e) => e.claim_id === refuting.id)!.contradiction_level;
    expect(level).toBeGreaterThanOrEqual(0.5);
    expect(await metricValue(o.metrics, 'contradictions_detected_total')).toBeGreaterThanOrEqual(1);
  });
});

describe('research runs whose model judges the stance toward the question', () => {
  const s = loopbackSetup('model-stance', () => [...corpusPages(PHOTOSYNTHESIS_CORPUS), ...plantedModelStancePages()]);
  const { withLlm } = engines(
    () => s.config,
    () => s.services,
  );

  it("sets a page the model reads as refuting the question against one that supports it, in the LLM's report", async () => {
    s.llm.responder = stanceJudgeResponder(
      new Map([
        [
          MODEL_STANCE_QUERY,
          [
            { sentence: MODEL_STANCE_SUPPORTING, stance: 'supports' as const },
            { sentence: MODEL_STANCE_REFUTING, stance: 'refutes' as const },
          ],
        ],
      ]),
      { misses: 0, falseRefutations: 0 },
    );
    const o = await research(s.t.db, withLlm, { query: MODEL_STANCE_QUERY });
    expectSoundRun(o);
    // The report is the language model's, and the stance was asked in the claims requests, not in others.
    expect(o.report.methodology).toMatch(/Report: language model/);
    expect(new Set(s.llm.requests.map((r) => r.schemaName))).toEqual(
      new Set(['research_plan', 'bridge_queries', 'claims', 'report']),
    );
    const refuting = o.claims.find((c) => c.claim_text === MODEL_STANCE_REFUTING)!;
    const supporting = o.claims.find((c) => c.claim_text === MODEL_STANCE_SUPPORTING)!;
    expect([refuting.stance, supporting.stance]).toEqual(['refutes', 'supports']);
    const dispute = o.report.disagreements.find((d) => d.claim === 'coffee consumption linked to a longer life');
    expect(dispute).toBeDefined();
    expect(dispute!.positions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ stance: 'supports', view: MODEL_STANCE_SUPPORTING, source_id: supporting.source_id }),
        expect.objectContaining({ stance: 'refutes', view: MODEL_STANCE_REFUTING, source_id: refuting.source_id }),
      ]),
    );
    const level = o.evidence.find((e) => e.claim_id === refuting.id)!.contradiction_level;
    expect(level).toBeGreaterThanOrEqual(0.5);
    expect(await metricValue(o.metrics, 'contradictions_detected_total')).toBeGreaterThanOrEqual(1);
  });
});

describe('research runs with the evidence engine', () => {
  const s = loopbackSetup('engine', () => [...corpusPages(PHOTOSYNTHESIS_CORPUS), ...plantedContradictionPages()]);
  const { extractive, withLlm } = engines(
    () => s.config,
    () => s.services,
  );

  it('completes a normal run with the LLM engine, counting requests and tokens on the run', async () => {
    const o = await research(s.t.db, withLlm, { query: PHOTOSYNTHESIS_QUERY, depth: 'normal' });
    expectSoundRun(o);
    expect(reportText(o.report)).toMatch(/light energy/);
    const usage = o.run.usage as Record<string, number>;
    expect(usage.llm_requests).toBeGreaterThan(2);
    expect(usage.llm_requests).toBeLessThanOrEqual(30);
    expect(usage.llm_tokens_input).toBeGreaterThan(0);
    expect(usage.llm_tokens_output).toBeGreaterThan(0);
    expect(await metricValue(o.metrics, 'llm_requests_total')).toBe(usage.llm_requests);
    expect(o.report.methodology).toMatch(/language model/);
    const sent = s.llm.requests.at(-1)!;
    expect(sent.model).toBe('fake-model');
    expect(sent.response_format).toMatchObject({ type: 'json_schema', json_schema: { strict: true } });
    // No LLM_API_KEY configured: no Authorization header.
    expect(sent.authorization).toBeNull();
  });

  it.each([
    ['extractive', extractive],
    ['LLM', withLlm],
  ] as const)('reports a planted numeric contradiction in disagreements (%s engine)', async (_label, engineFor) => {
    const o = await research(s.t.db, engineFor, { query: PLANTED_QUERY, language: 'de' });
    expectSoundRun(o);
    const views = o.report.disagreements.flatMap((d) => (d.positions ?? []).map((p) => normalizeWhitespace(p.view)));
    expect(views.some((v) => v.includes('29 billion tons'))).toBe(true);
    expect(views.some((v) => v.includes('about 9 billion tons'))).toBe(true);
    expect(o.report.disagreements.some((d) => d.kind === 'numeric')).toBe(true);
    expect(await metricValue(o.metrics, 'contradictions_detected_total')).toBeGreaterThanOrEqual(1);
    // German run: the report's own wording is German.
    expect(o.report.methodology).toMatch(/Recherche in 1 Runde/);
    expect(o.report.uncertainties.join(' ')).toMatch(/Widersprüche|widersprechen/);
    expect([PLANTED_TRUE, PLANTED_FALSE].every((t) => o.sources.some((src) => src.content.includes(t)))).toBe(true);
  });

  it('completes the run on the extractive engine when the LLM fails, and says so', async () => {
    s.llm.responder = () => ({ kind: 'status', status: 500 });
    const o = await research(s.t.db, withLlm, { query: 'What does chlorophyll absorb in plants?' });
    expectSoundRun(o);
    expect(o.report.uncertainties.join(' ')).toMatch(/language model was not usable \(server error/);
    expect(o.report.methodology).toMatch(/Planning: extractive engine/);
    expect(await metricValue(o.metrics, 'llm_requests_total')).toBe(
      (o.run.usage as Record<string, number>).llm_requests,
    );
  });

  it('repairs LLM quotes to the real passage and drops invented ones', async () => {
    s.llm.responder = plausibleResponder({ mangleQuotes: true, inventSpan: true });
    const o = await research(s.t.db, withLlm, { query: 'How does the Calvin cycle fix carbon dioxide in plants?' });
    expectSoundRun(o);
    expect(o.claims.some((c) => c.claim_text.includes('green cheese'))).toBe(false);
    expect(o.report.uncertainties.join(' ')).toMatch(/could not be found in their sources were discarded/);
  });

  it('keeps to max_llm_requests across steps and rounds, falling back when it is spent', async () => {
    const o = await research(s.t.db, withLlm, {
      query: 'How efficient is photosynthesis in crop plants?',
      depth: 'normal',
      budget: { max_llm_requests: 3 },
    });
    expectSoundRun(o);
    expect((o.run.usage as Record<string, number>).llm_requests).toBeLessThanOrEqual(3);
    expect(o.report.uncertainties.join(' ')).toMatch(/LLM request budget spent/);
  });
});

describeWithData('research runs on HotpotQA questions (third-party data)', [HOTPOT_FILE], (dataDir) => {
  const all = hotpotItems(dataDir);
  const items = openHotpotItems(all).slice(0, 4);
  const s = loopbackSetup('enginehotpot', () => hotpotPages(all));
  const { extractive, withLlm } = engines(
    () => s.config,
    () => s.services,
  );

  async function hotpotRound(engineFor: (metrics: Metrics) => ResearchServices, label: string) {
    let answered = 0;
    let supportingFetched = 0;
    let supportingTotal = 0;
    for (const item of items) {
      const o = await research(s.t.db, engineFor, { query: item.question });
      expectSoundRun(o);
      if (reportText(o.report).includes(item.answer.toLowerCase())) answered++;
      const titles = new Set(o.sources.map((src) => src.title));
      const supporting = [...new Set(item.supporting_facts.map(([title]) => title))];
      supportingTotal += supporting.length;
      supportingFetched += supporting.filter((title) => titles.has(title)).length;
    }
    console.log(
      `${label}: answer in report ${answered}/${items.length}; supporting pages fetched ${supportingFetched}/${supportingTotal}`,
    );
    expect(supportingFetched / supportingTotal).toBeGreaterThanOrEqual(0.75);
    expect(answered).toBeGreaterThanOrEqual(Math.ceil(items.length / 2));
  }

  it('completes HotpotQA questions with the extractive engine: grounded claims, cited findings, supporting pages fetched', async () => {
    await hotpotRound(extractive, 'extractive engine');
  });

  it('completes HotpotQA questions with the LLM engine', async () => {
    await hotpotRound(withLlm, 'LLM engine');
  });
});

describe("research runs through a worker's web access (Wikipedia search and the crawler)", () => {
  let t: TestDatabase;
  let wiki: FakeWiki;
  let config: AppConfig;
  let live: LiveWeb;

  beforeAll(async () => {
    t = await createTestDatabase('enginewiki');
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
    config = inProcessWorkerConfig(wiki.apiUrl);
    live = createLiveWeb(config);
  });
  afterAll(async () => {
    await live?.close();
    await wiki?.close();
    await t?.drop();
  });

  it('completes a normal run in two rounds, the second searching for the gaps of the first', async () => {
    const o = await research(t.db, () => live.services, {
      query: 'How does photosynthesis convert light energy in plants?',
      depth: 'normal',
    });
    expectSoundRun(o);
    // The second round sent queries of its own (what it found may all be pages the first round had).
    const events = (o.run.checkpoint as unknown as { notes: RunNote[] }).notes;
    const second = events.find((e): e is Extract<RunNote, { kind: 'search' }> => e.kind === 'search' && e.round === 2);
    expect(second?.sent).toBeGreaterThan(0);
    expect(o.report.methodology).toMatch(/2 round\(s\)/);
  });
});
