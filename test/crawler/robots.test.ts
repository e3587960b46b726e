import {
  CRAWLER_AGENT_TOKEN,
  MAX_ROBOTS_BYTES,
  createCrawler,
  createRobotsCache,
  type Crawler,
} from '@research/crawler';
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

/** `bytes` of robots.txt groups for other crawlers (what a file of many agents looks like). */
function otherAgents(bytes: number): string {
  let text = '';
  for (let i = 0; text.length < bytes; i++) text += `User-agent: crawler-${i}\nDisallow: /only-for-${i}/\n\n`;
  return text;
}

// Files of up to 2 MB, one per host name: a Disallow line placed inside and one beyond the first 500 KiB.
const FILES: Record<string, string> = {
  'big.test': `User-agent: ${CRAWLER_AGENT_TOKEN}\nDisallow: /early/\n\n${otherAgents(2_000_000)}User-agent: ${CRAWLER_AGENT_TOKEN}\nDisallow: /late/\n`,
  // Every rule for everyone, up to the size limit: the parse that is left must stay short.
  'rules.test': Array.from({ length: 40_000 }, (_, i) => `User-agent: *\nDisallow: /section-${i}/*/x$\n`)
    .join('')
    .slice(0, MAX_ROBOTS_BYTES),
  // Wildcards whose matching would cost minutes against a long path.
  'wild.test': `User-agent: *\n${Array.from({ length: 2_000 }, (_, i) => `Disallow: /${'a*'.repeat(120)}${i}\n`).join('')}`,
};

let site: FakeSite;
let crawler: Crawler;

beforeAll(async () => {
  site = await startFakeSite((req, res) => {
    const host = (req.headers.host ?? '').split(':')[0]!;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(FILES[host]);
    sendHtml(res, articleHtml(`Page ${path}`, prose(path.replace(/\W/g, ''))));
  }, '127.0.0.2');
  crawler = createCrawler({
    config: crawlerConfig(),
    logger: silentLogger,
    metrics: testMetrics().metrics,
    options: {
      resolver: fakeResolver(Object.fromEntries(Object.keys(FILES).map((host) => [host, ['127.0.0.2']]))),
      addressPolicy: policyWithPublicStandIn(),
      extraction: { threads: 1 },
      politenessDelayMs: 0,
    },
  });
});

afterAll(async () => {
  await crawler?.close();
  await site?.close();
});

const on = (host: string, path: string) => `http://${host}:${site.port}${path}`;

describe('a robots.txt over the size limit', () => {
  it('is read up to 500 KiB: rules there count, rules beyond are ignored (it used to refuse every page)', async () => {
    await expect(crawler.fetchDocument(on('big.test', '/early/page'), { noCache: true })).rejects.toMatchObject({
      reason: 'robots',
    });
    await expect(crawler.fetchDocument(on('big.test', '/late/page'), { noCache: true })).resolves.toMatchObject({
      title: 'Page /late/page',
    });
    await expect(crawler.fetchDocument(on('big.test', '/open/page'), { noCache: true })).resolves.toMatchObject({
      title: 'Page /open/page',
    });
    expect(site.hitsOf('/early/page')).toBe(0);
    expect(site.hitsOf('/robots.txt')).toBe(1);
  });

  it('is parsed and matched without holding the event loop', async () => {
    const { result, worstMs } = await worstEventLoopBlock(async () => {
      const rules = await crawler.validateUrl(on('rules.test', '/section-7/a/x'), { robots: true });
      const wild = await crawler.validateUrl(on('wild.test', `/${'a'.repeat(2_000)}`), { robots: true });
      const page = await crawler.fetchDocument(on('rules.test', '/elsewhere'), { noCache: true });
      return { rules, wild, page };
    });
    expect(worstMs).toBeLessThan(WORST_BLOCK_MARGIN_MS);
    expect(result.rules).toMatchObject({ allowed: false, reason: 'robots' });
    // Rules too costly to match against a URL count as disallowing it.
    expect(result.wild).toMatchObject({ allowed: false, reason: 'robots' });
    expect(result.page.title).toBe('Page /elsewhere');
  });
});

describe('the robots.txt cache', () => {
  const rulesOf = (origin: string) => `User-agent: *\nDisallow: /${origin.replace(/\W/g, '')}/${'x'.repeat(100_000)}\n`;

  it('holds at most maxEntries origins and maxSize characters of rules', async () => {
    let fetches = 0;
    const cache = createRobotsCache({
      ttlMs: 60_000,
      maxEntries: 100,
      maxSize: 2_000_000,
      fetch: async (url) => {
        fetches++;
        return { status: 200, body: rulesOf(new URL(url).host) };
      },
    });
    for (let i = 0; i < 1_000; i++) await cache.isAllowed(`http://site-${i}.test/page`);
    const { entries, size } = cache.stats();
    expect(entries).toBeLessThanOrEqual(100);
    expect(size).toBeLessThanOrEqual(2_000_000);
    expect(entries).toBeGreaterThanOrEqual(10);
    // The most recently used origins are the ones kept.
    await cache.isAllowed('http://site-999.test/page');
    expect(fetches).toBe(1_000);
    await cache.isAllowed('http://site-0.test/page');
    expect(fetches).toBe(1_001);
  });

  it('drops expired entries, also of origins never asked again', async () => {
    let clock = 0;
    const cache = createRobotsCache({
      ttlMs: 10_000,
      now: () => clock,
      fetch: async () => ({ status: 200, body: 'User-agent: *\nDisallow: /private\n' }),
    });
    for (let i = 0; i < 50; i++) await cache.isAllowed(`http://old-${i}.test/page`);
    expect(cache.stats().entries).toBe(50);
    clock += 20_000;
    await cache.isAllowed('http://new.test/page');
    expect(cache.stats().entries).toBe(1);
  });
});
