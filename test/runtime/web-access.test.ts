import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEPTH_BUDGETS, loadConfig } from '@research/core';
import { createCrawler, type Crawler } from '@research/crawler';
import type { SearchResultRow, SourceRow } from '@research/database';
import { createMetrics, createSilentLogger } from '@research/observability';
import type { StepContext } from '@research/pipeline';
import { createLiveWebAccess } from '@research/runtime';
import { createSearchProvider } from '@research/search';

// The pipeline's fetch step over the real crawler: budgets carried in the run's usage, notes for the report.
describe('live web access', () => {
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

  function context(budget: Partial<StepContext['budget']>): StepContext {
    return {
      run: { id: 'run', language: 'en' } as StepContext['run'],
      budget: { ...DEPTH_BUDGETS.quick, ...budget },
      round: 1,
      rounds: 1,
      signal: new AbortController().signal,
      logger: createSilentLogger(),
      metrics: createMetrics({ defaultMetrics: false }),
      usage: {},
      notes: [],
    };
  }
  const hits = (paths: string[]) =>
    paths.map((p, i) => ({ url: `${origin}${p}`, title: p, published_at: null, rank: i + 1 }) as SearchResultRow);

  it('keeps the download budget across calls and tells the report when it ran out', async () => {
    const web = createLiveWebAccess({
      config,
      provider: createSearchProvider(config, { logger: createSilentLogger() }),
      crawler,
      logger: createSilentLogger(),
    });
    const ctx = context({ max_total_download_bytes: 9_000, max_pages_per_domain: 10 });
    const first = await web.fetch(ctx, hits(['/a', '/b']), []);
    expect(first).toHaveLength(2);
    expect(ctx.usage.download_bytes).toBeGreaterThan(0);
    expect(ctx.notes).toEqual([]);
    const second = await web.fetch(ctx, hits(['/c', '/d', '/e']), first as unknown as SourceRow[]);
    expect(ctx.usage.download_bytes).toBeLessThanOrEqual(9_000);
    expect(first.length + second.length).toBeLessThan(5);
    expect(ctx.notes).toContain('budget:download_bytes:9000');
  });
});
