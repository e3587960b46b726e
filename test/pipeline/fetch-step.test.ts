import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEPTH_BUDGETS, loadConfig, type Budget } from '@research/core';
import { createCrawler, type Crawler } from '@research/crawler';
import type { SearchResultRow, SourceRow } from '@research/database';
import { createMetrics, createSilentLogger } from '@research/observability';
import type { RunEvent } from '@research/engine';
import { fetchStep, runBudgetOf, type RunSnapshot, type StepContext } from '@research/pipeline';

// The pipeline's fetch step over the real crawler: budgets carried in the run's usage, events for the report.
describe('the fetch step', () => {
  let server: http.Server;
  let origin: string;
  let crawler: Crawler;
  const config = loadConfig({
    CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
    CRAWLER_RESPECT_ROBOTS: 'false',
    LOG_LEVEL: 'error',
  });
  const paragraph = 'Photosynthesis converts light energy into chemical energy stored in glucose molecules. ';

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(`<html><head><title>${req.url}</title></head><body><article><h1>Page ${req.url}</h1>
        <p>${paragraph.repeat(40)}</p></article></body></html>`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    crawler = createCrawler({
      config,
      logger: createSilentLogger(),
      metrics: createMetrics({ defaultMetrics: false }),
    });
  });
  afterAll(async () => {
    await crawler.close();
    await new Promise((resolve) => server.close(resolve));
  });

  function context(limits: Partial<Budget>): StepContext & { events: RunEvent[] } {
    const events: RunEvent[] = [];
    const budget = runBudgetOf({ depth: 'quick', budget: { ...DEPTH_BUDGETS.quick, ...limits } });
    return {
      run: { id: 'run', language: 'en' } as StepContext['run'],
      budget,
      round: 1,
      rounds: 1,
      signal: new AbortController().signal,
      logger: createSilentLogger(),
      metrics: createMetrics({ defaultMetrics: false }),
      services: { llm: null, searchProvider: null as never, crawler, localCorpusDir: undefined },
      usage: budget.usage,
      events,
      record: (event) => void events.push(event),
    };
  }
  const hits = (paths: string[]) =>
    paths.map(
      (p, i) => ({ url: `${origin}${p}`, title: p, published_at: null, rank: i + 1, round: 1 }) as SearchResultRow,
    );
  const snapshot = (searchResults: SearchResultRow[], sources: SourceRow[]): RunSnapshot => ({
    plan: null,
    searchResults,
    sources,
    claims: [],
    evidence: [],
  });
  const budgetEvents = (ctx: StepContext) => ctx.events.filter((e) => e.kind === 'budget');

  it('keeps the download budget across calls and tells the report when it ran out', async () => {
    const ctx = context({ max_total_download_bytes: 9_000, max_pages_per_domain: 10 });
    const first = await fetchStep(snapshot(hits(['/a', '/b']), []), ctx);
    expect(first).toHaveLength(2);
    expect(ctx.usage.download_bytes).toBeGreaterThan(0);
    expect(budgetEvents(ctx)).toEqual([]);
    const second = await fetchStep(snapshot(hits(['/c', '/d', '/e']), first as unknown as SourceRow[]), ctx);
    expect(ctx.usage.download_bytes).toBeLessThanOrEqual(9_000);
    expect(first.length + second.length).toBeLessThan(5);
    expect(budgetEvents(ctx)).toEqual([{ kind: 'budget', resource: 'download_bytes', max: 9000, dropped: 0 }]);
  });
});
