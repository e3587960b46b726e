import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ReportBody } from '@research/core';
import { reportText } from '@research/engine';
import { createMetrics, createSilentLogger } from '@research/observability';
import { createResearchRunner } from '@research/pipeline';
import type { ResearchJobContext } from '@research/queue';
import { describeWithData } from '../support/data-dir';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { createLiveWeb, type LiveWeb } from '../support/engine';
import { flatText, readabilityPage } from '../support/page-blocks';
import { insertTestRun, runRow, testConfig } from '../worker/worker-fixtures';

const READABILITY_PAGES = 'pages/readability/test/test-pages';

function job(): ResearchJobContext {
  return { id: 'job', attempt: 1, maxAttempts: 3, afterOutage: false, signal: new AbortController().signal };
}

describeWithData('reports over a local folder of real web pages (third-party data)', [READABILITY_PAGES], (dataDir) => {
  let t: TestDatabase;
  let live: LiveWeb;
  let corpusDir: string;

  beforeAll(async () => {
    // The pages as a user would drop them into LOCAL_CORPUS_DIR: whole HTML files, site chrome and all.
    corpusDir = fs.mkdtempSync(path.join(os.tmpdir(), 'readability-corpus-'));
    const pagesDir = path.join(dataDir, READABILITY_PAGES);
    for (const name of fs.readdirSync(pagesDir)) {
      const source = path.join(pagesDir, name, 'source.html');
      if (fs.existsSync(source)) fs.copyFileSync(source, path.join(corpusDir, `${name}.html`));
    }
    t = await createTestDatabase('localcorpus');
    live = createLiveWeb(testConfig({ SEARCH_PROVIDER: 'local', LOCAL_CORPUS_DIR: corpusDir }));
  });
  afterAll(async () => {
    await live?.close();
    await t?.drop();
    if (corpusDir) fs.rmSync(corpusDir, { recursive: true, force: true });
  });

  async function research(query: string) {
    const metrics = createMetrics({ defaultMetrics: false });
    const runner = createResearchRunner({
      db: t.db,
      services: live.services,
      metrics,
      logger: createSilentLogger(),
      pollIntervalMs: 200,
    });
    const inserted = await insertTestRun(t.db, { query, depth: 'normal', language: 'en' });
    await runner({ research_id: inserted.id }, job());
    const run = await runRow(t.db, inserted.id);
    const sources = await t.db.selectFrom('sources').selectAll().where('run_id', '=', run.id).execute();
    const claims = await t.db.selectFrom('claims').selectAll().where('run_id', '=', run.id).execute();
    const row = await t.db.selectFrom('reports').selectAll().where('run_id', '=', run.id).executeTakeFirst();
    return { run, sources, claims, report: row?.report as ReportBody };
  }
  type Outcome = Awaited<ReturnType<typeof research>>;

  /**
   * The texts of the corpus pages that are no statements by their markup: headings, navigation, footers,
   * captions and bylines outside the article, and reference entries.
   */
  let chrome: string[] | undefined;
  function chromeTexts(): string[] {
    const pagesDir = path.join(dataDir, READABILITY_PAGES);
    return (chrome ??= fs
      .readdirSync(pagesDir)
      .map((name) => readabilityPage(path.join(pagesDir, name)))
      .flatMap((page) => [...page.chrome, ...page.references])
      .map((b) => flatText(b.text)));
  }

  /** The texts of a report and its run that lie inside the pages' chrome (the statement rules keep them out). */
  function inChrome(texts: readonly string[], chrome: readonly string[]): string[] {
    return texts.filter((text) => chrome.some((block) => block.includes(flatText(text))));
  }

  /** The findings and the disagreements' positions of a run's report. */
  function reportTexts(o: Outcome): string[] {
    return [
      ...o.report.findings.map((f) => f.text),
      ...o.report.disagreements.flatMap((d) => (d.positions ?? []).map((p) => p.view)),
    ];
  }

  /**
   * No finding, disagreement or claim is chrome: the HTML files are read as fetched pages are (their
   * article), so a sentence-shaped line of a menu or a footer ("For almost 100 years, the ACLU has worked to
   * defend …"), which the statement rules alone let through (statements.test.ts), never reaches a claim.
   */
  function expectNoChrome(o: Outcome): void {
    expect(inChrome(reportTexts(o), chromeTexts())).toEqual([]);
    expect(
      inChrome(
        o.claims.map((c) => c.evidence_span),
        chromeTexts(),
      ),
    ).toEqual([]);
  }

  it('says plainly that the sources do not answer a question the folder cannot answer, and lists nothing', async () => {
    const o = await research('What do site reliability engineers do about toil?');
    expect(o.run.state).toBe('completed');
    expect(o.sources.length).toBeGreaterThan(0);
    expect(o.report.findings).toEqual([]);
    expect(o.report.summary).toBe(reportText('en').notAnswered(o.sources.length));
    expect(o.report.disagreements).toEqual([]);
    expectNoChrome(o);
  });

  it('answers a question one page answers from that page, with no headline, notice or reference', async () => {
    const o = await research('Why did the United States lift sanctions on Sudan?');
    expect(o.run.state).toBe('completed');
    expect(o.report.findings.length).toBeGreaterThan(0);
    // The first finding states why; every finding comes from a page about Sudan.
    expect(o.report.findings[0]!.text).toMatch(/\bSudan\b.*\bsanctions\b|\bsanctions\b.*\bSudan\b/);
    const byId = new Map(o.sources.map((s) => [s.id, s]));
    for (const f of o.report.findings)
      for (const id of f.source_ids) expect(byId.get(id)?.content).toMatch(/\bSudan\b/);
    const texts = [...reportTexts(o), ...o.claims.map((c) => c.evidence_span)];
    expect(texts.filter((t) => /appears in print|\||et al\.|Proceedings of/.test(t))).toEqual([]);
    // One page answers: there is no second source to disagree with it (a reference line and an unrelated
    // quote once made a "disagreement" of kind negation).
    expect(o.report.disagreements).toEqual([]);
    expectNoChrome(o);
  });
});
