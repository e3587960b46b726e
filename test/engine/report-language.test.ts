import type { ReportBody } from '@research/core';
import type { Database } from '@research/database';
import { englishFallback, reportText, type ReportText } from '@research/engine';
import { createLlmClient } from '@research/llm';
import { createMetrics, createSilentLogger } from '@research/observability';
import { createResearchRunner, type ResearchServices } from '@research/pipeline';
import type { ResearchJobContext } from '@research/queue';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createLiveWeb, type LiveWeb } from '../support/engine';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm';
import { startFakeWeb, type FakeWeb } from '../fakes/fake-web';
import { insertTestRun, runRow, testConfig } from '../worker/worker-fixtures';
import { loopbackServices, plantedContradictionPages } from './engine-support';

// The English templates are rendered programmatically: every template is called with marker arguments
// (and once more with zeros, for the branches that depend on a count or a flag); the literal text between
// the markers is what English wording a report must not contain.
const MARK = 987654321;
const marker: unknown = new Proxy({}, { get: (_target, prop) => (prop === Symbol.toPrimitive ? () => MARK : MARK) });
const SPLIT = new RegExp(`${MARK}|undefined|(?<![\\d.])0(?![\\d.])`);

/** Every rendering of every template of a language (groups of templates too): [key, rendered text]. */
function renderings(t: ReportText | Record<string, unknown>, prefix = ''): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(t) as Array<[string, unknown]>) {
    const key = `${prefix}${name}`;
    if (typeof value === 'function') {
      const fn = value as (...args: unknown[]) => string;
      out.push([key, fn(...Array<unknown>(fn.length).fill(marker))]);
      out.push([`${key}:zero`, fn(...Array<unknown>(fn.length).fill(0))]);
    } else if (typeof value === 'string') out.push([key, value]);
    else out.push(...renderings(value as Record<string, unknown>, `${key}.`));
  }
  return out;
}

/** The literal pieces of a rendering (marker arguments removed), trimmed of spaces and punctuation. */
function fragments(text: string): string[] {
  return text
    .split(SPLIT)
    .map((f) => f.replace(/^[\s.,;:!?()[\]"'«»„“”/-]+|[\s.,;:!?()[\]"'«»„“”/-]+$/gu, ''))
    .filter((f) => /\p{L}{2}/u.test(f));
}

/**
 * English template fragments a report in `language` must not contain: every fragment of two or more
 * words, and single words unless the language's own templates use the same word (cognates like "sources").
 */
function englishOnlyFragments(language: string): string[] {
  const own = renderings(reportText(language)).map(([, text]) => text);
  const english = new Set(renderings(reportText('en')).flatMap(([, text]) => fragments(text)));
  return [...english].filter((f) => /\s/.test(f) || !own.some((text) => containsPhrase(text, f)));
}

function containsPhrase(text: string, phrase: string): boolean {
  const escaped = phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'iu').test(text);
}

/** The report's own wording: everything except text quoted from sources (finding texts, views, claims). */
function ownWording(report: ReportBody): string {
  let summary = report.summary;
  for (const f of report.findings) {
    const body = f.text.trim().replace(/[.!?…]+["'”»]*$/u, '');
    summary = summary.split(body).join(' ');
  }
  return [
    summary,
    report.methodology,
    ...report.uncertainties,
    ...report.disagreements.map((d) => d.detail ?? ''),
  ].join('\n');
}

describe('report templates per language', () => {
  it.each(['fr', 'es', 'it', 'de'])('%s has its own wording for every template', (language) => {
    const english = new Map(renderings(reportText('en')));
    const own = renderings(reportText(language));
    expect(own.map(([key]) => key).sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of own) {
      const single = !/\s/.test(text.trim());
      // A single word may be the same in both languages ("dates", "causes" in French); a sentence may not.
      if (!single) expect({ key, text }).not.toEqual({ key, text: english.get(key) });
    }
    expect(englishOnlyFragments(language).length).toBeGreaterThan(20);
  });

  it('uses English for languages without templates and says so', () => {
    expect(reportText('pt')).toBe(reportText('en'));
    expect(reportText('fr-CA')).toBe(reportText('fr'));
  });
});

describe('reports of runs in French, Spanish, Italian and an unsupported language', () => {
  let t: TestDatabase;
  let web: FakeWeb;
  let llm: FakeLlm;
  let live: LiveWeb;
  let services: ResearchServices;
  let config: ReturnType<typeof testConfig>;

  beforeAll(async () => {
    t = await createTestDatabase('reportlang');
    web = await startFakeWeb({ pages: plantedContradictionPages() });
    llm = await startFakeLlm();
    // Every LLM call fails: plan, claims and report fall back, so the fallback notes are rendered too.
    llm.responder = () => ({ kind: 'status', status: 500 });
    config = testConfig({
      // The fake web's pages live on loopback, which the crawler refuses by default.
      CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'fake-model',
      CRAWLER_TIMEOUT_MS: '5000',
    });
    live = createLiveWeb(config);
    services = loopbackServices(web.searchUrl, live.services);
  });
  afterAll(async () => {
    await live?.close();
    await llm?.close();
    await web?.close();
    await t?.drop();
  });

  async function reportOf(db: Database, query: string, language: string): Promise<ReportBody> {
    const metrics = createMetrics({ defaultMetrics: false });
    const logger = createSilentLogger();
    const runner = createResearchRunner({
      db,
      services: { ...services, llm: createLlmClient({ config: config.llm, metrics, logger, retryBaseMs: 1 }) },
      metrics,
      logger,
      pollIntervalMs: 200,
    });
    // A search budget of 2 queries and more queries asked for: the budget note is rendered as well.
    const run = await insertTestRun(db, {
      query,
      depth: 'quick',
      language,
      budget: { max_search_queries: 2 },
      extraQueries: ['volcanoes carbon dioxide', 'human activities emissions'],
    });
    const job: ResearchJobContext = {
      id: 'job',
      attempt: 1,
      maxAttempts: 3,
      afterOutage: false,
      signal: new AbortController().signal,
    };
    await runner({ research_id: run.id }, job);
    expect((await runRow(db, run.id)).state).toBe('completed');
    const row = await db.selectFrom('reports').select('report').where('run_id', '=', run.id).executeTakeFirstOrThrow();
    return row.report as unknown as ReportBody;
  }

  // Questions in the run's language naming the English pages' subject (the loopback web is English).
  it.each([
    ['fr', 'Combien de carbon dioxide émettent les human activities et les volcanoes par an ?'],
    ['es', '¿Cuánto carbon dioxide emiten las human activities y los volcanoes al año?'],
    ['it', 'Quanto carbon dioxide emettono le human activities e i volcanoes ogni anno?'],
  ])('a %s run report contains no English template wording', async (language, query) => {
    const report = await reportOf(t.db, query, language);
    const wording = ownWording(report);
    const leaked = englishOnlyFragments(language).filter((f) => containsPhrase(wording, f));
    expect(leaked).toEqual([]);
    // And the language's own templates were used: methodology, fallbacks and the search budget.
    const own = reportText(language);
    expect(report.methodology.startsWith(fragments(own.methodology(marker as never))[0]!)).toBe(true);
    expect(report.uncertainties).toEqual(
      expect.arrayContaining([
        own.llmFallback(own.steps.plan!, 1, own.reasons.http!, 1),
        expect.stringContaining(fragments(own.searchBudget(MARK, MARK))[0]!),
      ]),
    );
  });

  it('words the report of a run in another language in English and says so', async () => {
    const report = await reportOf(t.db, 'How much carbon dioxide do human activities and volcanoes emit?', 'pt');
    expect(report.methodology).toMatch(/^Research in 1 round\(s\)/);
    expect(report.uncertainties).toContain(englishFallback('pt'));
  });
});
