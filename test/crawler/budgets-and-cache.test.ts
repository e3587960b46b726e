import { createCrawler, findCachedPage, type AddressPolicy, type Crawler } from '@research/crawler';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { WORST_BLOCK_MARGIN_MS, worstEventLoopBlock } from '../support/event-loop';
import {
  articleHtml,
  crawlerConfig,
  fakeResolver,
  policyWithPublicStandIn,
  prose,
  sendHtml,
  silentLogger,
  startFakeSite,
  testMetrics,
  type FakeSite,
} from './support';

const HUGE_TEXT = prose('huge', 4)
  .join('\n\n')
  .repeat(5_000_000 / 1_400)
  .slice(0, 5_000_000);

let site: FakeSite;
let database: TestDatabase;
let crawler: Crawler;
const counters = testMetrics();
/** What the site's robots.txt says (404 while null). */
let robotsTxt: string | null = null;

beforeAll(async () => {
  database = await createTestDatabase('crawler');
  site = await startFakeSite((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/robots.txt')
      return void (robotsTxt === null ? res.writeHead(404).end() : res.writeHead(200).end(robotsTxt));
    if (path.startsWith('/article/')) return sendHtml(res, articleHtml(`Article ${path}`, prose(path.slice(9))));
    // The same story syndicated under another address, with different navigation around it.
    if (path === '/copy-of/alpha')
      return sendHtml(res, articleHtml('Copy of alpha', prose('alpha')).replace('Home', 'Start page'));
    // The original of a syndicated story, answering late: its copy is read first.
    if (path === '/late/gamma') return void setTimeout(() => sendHtml(res, articleHtml('Gamma', prose('gamma'))), 300);
    if (path === '/copy-of/gamma')
      return sendHtml(res, articleHtml('Copy of gamma', prose('gamma')).replace('Home', 'Start page'));
    if (path === '/moved') return void res.writeHead(301, { location: '/article/alpha' }).end();
    if (path.startsWith('/big/')) return sendHtml(res, articleHtml(`Big ${path}`, [...prose(path.slice(5), 40)]));
    // A plain-text page at the 5 MB cap (the same text under every /huge/ address).
    if (path.startsWith('/huge/')) return void res.writeHead(200, { 'content-type': 'text/plain' }).end(HUGE_TEXT);
    res.writeHead(404).end();
  }, '127.0.0.2');
  crawler = createCrawler({
    config: crawlerConfig(),
    logger: silentLogger,
    metrics: counters.metrics,
    db: database.db,
    options: {
      resolver: fakeResolver({
        'a.test': ['127.0.0.2'],
        'www.a.test': ['127.0.0.2'],
        'b.test': ['127.0.0.2'],
        'c.test': ['127.0.0.2'],
      }),
      addressPolicy: policyWithPublicStandIn(),
      extraction: { threads: 1 },
      politenessDelayMs: 0,
    },
  });
});

afterAll(async () => {
  await crawler?.close();
  await site?.close();
  await database?.drop();
});

const on = (host: string, path: string) => `http://${host}:${site.port}${path}`;
const roomy = { max_sources: 50, max_pages_per_domain: 50, max_total_download_bytes: 50_000_000 };

describe('run budgets', () => {
  it('keeps at most max_pages_per_domain pages of one registrable domain, across rounds', async () => {
    const budget = { ...roomy, max_pages_per_domain: 2 };
    const first = await crawler.fetchSources(
      [
        on('a.test', '/article/d1'),
        on('a.test', '/article/d2'),
        on('a.test', '/article/d3'),
        on('b.test', '/article/d4'),
      ],
      budget,
    );
    expect(first.sources.map((s) => s.domain).sort()).toEqual(['a.test', 'a.test', 'b.test']);
    expect(first.rejected).toEqual([{ url: on('a.test', '/article/d3'), reason: 'budget_domain' }]);
    expect(site.hitsOf('/article/d3')).toBe(0);
    const second = await crawler.fetchSources([on('a.test', '/article/d5'), on('b.test', '/article/d6')], {
      ...budget,
      used: first.usage,
    });
    expect(second.sources.map((s) => s.url)).toEqual([on('b.test', '/article/d6')]);
    expect(second.usage.pages_per_domain).toEqual({ 'a.test': 2, 'b.test': 2 });
  });

  it('keeps at most max_sources sources, across rounds', async () => {
    const budget = { ...roomy, max_sources: 3 };
    const first = await crawler.fetchSources([on('c.test', '/article/s1'), on('c.test', '/article/s2')], budget);
    expect(first.sources).toHaveLength(2);
    const second = await crawler.fetchSources(
      [on('c.test', '/article/s3'), on('c.test', '/article/s4'), on('c.test', '/article/s5')],
      { ...budget, used: first.usage },
    );
    expect(second.sources.map((s) => s.url)).toEqual([on('c.test', '/article/s3')]);
    expect(second.rejected.map((r) => r.reason)).toEqual(['budget_sources', 'budget_sources']);
    expect(site.hitsOf('/article/s4') + site.hitsOf('/article/s5')).toBe(0);
  });

  it('stops downloading at max_total_download_bytes, across rounds', async () => {
    const budget = { ...roomy, max_total_download_bytes: 12_000 };
    const first = await crawler.fetchSources(
      [on('c.test', '/big/b1'), on('c.test', '/big/b2'), on('c.test', '/big/b3')],
      budget,
    );
    expect(first.usage.bytes).toBeLessThanOrEqual(12_000);
    expect(first.rejected.some((r) => r.reason === 'budget_bytes')).toBe(true);
    const second = await crawler.fetchSources([on('c.test', '/big/b4')], { ...budget, used: first.usage });
    expect(second.sources).toEqual([]);
    expect(second.rejected).toEqual([{ url: on('c.test', '/big/b4'), reason: 'budget_bytes' }]);
    expect(site.hitsOf('/big/b4')).toBe(0);
  });
});

describe('duplicates', () => {
  it('merges the same page by normalised URL, by redirect target and by near-identical text, and counts them', async () => {
    const before = await counters.counter('duplicate_sources_total');
    const result = await crawler.fetchSources(
      [
        on('a.test', '/article/alpha'),
        on('a.test', '/article/alpha?utm_campaign=x#comments'),
        on('www.a.test', '/article/alpha'),
        on('b.test', '/moved'),
        on('b.test', '/copy-of/alpha'),
        on('b.test', '/article/beta'),
      ],
      roomy,
    );
    expect(result.sources.map((s) => s.url)).toEqual([on('a.test', '/article/alpha'), on('b.test', '/article/beta')]);
    expect(result.duplicates).toBe(4);
    expect((await counters.counter('duplicate_sources_total')) - before).toBe(4);
  });

  it('keeps the copy listed first, whichever answers first, and moves its domain count with it', async () => {
    const result = await crawler.fetchSources([on('a.test', '/late/gamma'), on('b.test', '/copy-of/gamma')], roomy);
    expect(result.sources.map((s) => s.url)).toEqual([on('a.test', '/late/gamma')]);
    expect(result.duplicates).toBe(1);
    expect(result.usage.sources).toBe(1);
    expect(result.usage.pages_per_domain).toEqual({ 'a.test': 1 });
  });

  it('recognises a 5 MB page as a copy without holding the event loop', async () => {
    const { result, worstMs } = await worstEventLoopBlock(() =>
      crawler.fetchSources([on('a.test', '/huge/one'), on('b.test', '/huge/copy')], roomy),
    );
    expect(result.sources).toHaveLength(1);
    expect(result.duplicates).toBe(1);
    expect(worstMs).toBeLessThan(WORST_BLOCK_MARGIN_MS);
  });

  it('treats a source kept in an earlier round as a duplicate', async () => {
    const result = await crawler.fetchSources([on('c.test', '/article/gamma')], roomy, {
      existing: [{ url: on('c.test', '/article/gamma') }],
    });
    expect(result).toMatchObject({ sources: [], duplicates: 1 });
  });
});

describe('page cache', () => {
  it('serves a page fetched before from Postgres: one request at the origin, no download bytes', async () => {
    const target = on('c.test', '/article/cached-topic');
    const first = await crawler.fetchSources([target], roomy);
    expect(first.sources).toHaveLength(1);
    expect(first.usage.bytes).toBeGreaterThan(0);
    const second = await crawler.fetchSources([target], roomy);
    expect(second.sources).toHaveLength(1);
    expect(second.sources[0]).toMatchObject({
      url: target,
      title: first.sources[0].title,
      content: first.sources[0].content,
    });
    expect(second.usage.bytes).toBe(0);
    expect(second.usage.sources).toBe(1);
    expect(site.hitsOf('/article/cached-topic')).toBe(1);
    expect(await findCachedPage(database.db, target, new Date())).toMatchObject({ finalUrl: target });
  });

  it('fetches again once the cached page has expired', async () => {
    const target = on('c.test', '/article/short-lived');
    const later = new Date(Date.now() + 2 * 86_400_000);
    const clocked = createCrawler({
      config: crawlerConfig(),
      logger: silentLogger,
      metrics: counters.metrics,
      db: database.db,
      options: {
        resolver: fakeResolver({ 'c.test': ['127.0.0.2'] }),
        addressPolicy: policyWithPublicStandIn(),
        extraction: { threads: 1 },
        politenessDelayMs: 0,
        now: () => later,
      },
    });
    try {
      await crawler.fetchDocument(target);
      await clocked.fetchDocument(target);
      expect(site.hitsOf('/article/short-lived')).toBe(2);
    } finally {
      await clocked.close();
    }
  });

  it('looks the host up once per fetch: at the connection when fetching, before serving when cached', async () => {
    const target = on('d.test', '/article/looked-up');
    let lookups = 0;
    const counting = createCrawler({
      // Without robots.txt, whose own request would look the host up as well.
      config: crawlerConfig({ CRAWLER_RESPECT_ROBOTS: 'false' }),
      logger: silentLogger,
      metrics: counters.metrics,
      db: database.db,
      options: {
        resolver: fakeResolver({ 'd.test': () => (lookups++, ['127.0.0.2']) }),
        addressPolicy: policyWithPublicStandIn(),
        extraction: { threads: 1 },
        politenessDelayMs: 0,
      },
    });
    try {
      await expect(counting.fetchDocument(target)).resolves.toMatchObject({ fromCache: false });
      expect(lookups).toBe(1);
      await expect(counting.fetchDocument(target)).resolves.toMatchObject({ fromCache: true });
      expect(lookups).toBe(2);
    } finally {
      await counting.close();
    }
  });

  describe('checks before serving from the cache', () => {
    // Two crawlers on one database, as two processes of one deployment after a change of configuration.
    const crawlerWith = (env: Record<string, string>, options: { addressPolicy?: AddressPolicy } = {}) =>
      createCrawler({
        config: crawlerConfig(env),
        logger: silentLogger,
        metrics: counters.metrics,
        db: database.db,
        options: {
          resolver: fakeResolver({ 'c.test': ['127.0.0.2'] }),
          extraction: { threads: 1 },
          politenessDelayMs: 0,
          ...options,
        },
      });

    it('does not serve a page cached while its address was allowed once the address is refused', async () => {
      const target = on('c.test', '/article/private-later');
      const allowing = crawlerWith({ CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true' });
      const refusing = crawlerWith({ CRAWLER_ALLOW_PRIVATE_NETWORKS: 'false' });
      try {
        await expect(allowing.fetchDocument(target)).resolves.toMatchObject({ fromCache: false });
        await expect(allowing.fetchDocument(target)).resolves.toMatchObject({ fromCache: true });
        // A name resolving to a refused address is refused as one that does not resolve.
        await expect(refusing.fetchDocument(target)).rejects.toMatchObject({ reason: 'dns' });
        await expect(refusing.fetchDocument(target, { cacheOnly: true })).rejects.toMatchObject({ reason: 'dns' });
        expect(site.hitsOf('/article/private-later')).toBe(1);
      } finally {
        await allowing.close();
        await refusing.close();
      }
    });

    it('does not serve a page cached while robots.txt allowed it once robots.txt disallows it', async () => {
      const target = on('c.test', '/article/robots-later');
      const before = crawlerWith({}, { addressPolicy: policyWithPublicStandIn() });
      const after = crawlerWith({}, { addressPolicy: policyWithPublicStandIn() });
      try {
        await expect(before.fetchDocument(target)).resolves.toMatchObject({ fromCache: false });
        robotsTxt = 'User-agent: *\nDisallow: /article/robots-later\n';
        await expect(after.fetchDocument(target)).rejects.toMatchObject({ reason: 'robots' });
        expect(site.hitsOf('/article/robots-later')).toBe(1);
      } finally {
        robotsTxt = null;
        await before.close();
        await after.close();
      }
    });
  });
});
