import { createCrawler, type Crawler } from '@research/crawler';
import {
  crawlerConfig,
  fakeResolver,
  policyWithPublicStandIn,
  silentLogger,
  startFakeSite,
  testMetrics,
  articleHtml,
  prose,
  sendHtml,
  type FakeSite,
} from './support';
import { createCapturingLogger } from '../http/support';

// The victim answers on every loopback form (listening on `::` takes IPv4 too): any hit is a breach.
let victim: FakeSite;
// The stand-in "public" site on 127.0.0.2 redirects wherever the test tells it.
let redirector: FakeSite;
let strict: Crawler;
let viaRedirects: Crawler;
const counters = testMetrics();

const P = () => victim.port;

beforeAll(async () => {
  victim = await startFakeSite((_req, res) => sendHtml(res, articleHtml('Secret', prose('secret'))), '::');
  redirector = await startFakeSite((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/ok') return sendHtml(res, articleHtml('Public page', prose('public')));
    if (url.pathname === '/loop') {
      res.writeHead(302, { location: `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}` });
      return void res.end();
    }
    if (url.pathname === '/hop') {
      // /hop?left=2&to=X: a chain that passes through the public site before reaching X.
      const left = Number(url.searchParams.get('left'));
      const to = url.searchParams.get('to') ?? '/ok';
      const next = left > 0 ? `/hop?left=${left - 1}&to=${encodeURIComponent(to)}` : to;
      res.writeHead(301, { location: next });
      return void res.end();
    }
    res.writeHead(302, { location: url.searchParams.get('to') ?? '/ok' });
    res.end();
  }, '127.0.0.2');

  let rebindCalls = 0;
  const resolver = fakeResolver({
    'evil.test': ['127.0.0.1'],
    'evil6.test': ['::1'],
    'mixed.test': ['127.0.0.2', '127.0.0.1'],
    'meta.test': ['169.254.169.254'],
    'public.test': ['127.0.0.2'],
    // DNS rebinding: the first answer (what a check-then-fetch guard would see) is public, later ones loopback.
    'rebind.test': () => (rebindCalls++ === 0 ? ['127.0.0.2'] : ['127.0.0.1']),
  });
  const common = {
    config: crawlerConfig({ CRAWLER_RESPECT_ROBOTS: 'false' }),
    logger: silentLogger,
    metrics: counters.metrics,
  };
  strict = createCrawler({ ...common, options: { resolver, extraction: { threads: 1 }, politenessDelayMs: 0 } });
  viaRedirects = createCrawler({
    ...common,
    options: { resolver, addressPolicy: policyWithPublicStandIn(), extraction: { threads: 1 }, politenessDelayMs: 0 },
  });
});

afterAll(async () => {
  await strict?.close();
  await viaRedirects?.close();
  await victim?.close();
  await redirector?.close();
});

const directHostile = (): Array<[string, string, string]> => [
  ['loopback IPv4', `http://127.0.0.1:${P()}/`, 'blocked_address'],
  ['loopback IPv6', `http://[::1]:${P()}/`, 'blocked_address'],
  ['hex IPv4', `http://0x7f000001:${P()}/`, 'blocked_address'],
  ['decimal IPv4', `http://2130706433:${P()}/`, 'blocked_address'],
  ['octal IPv4', `http://0177.0.0.1:${P()}/`, 'blocked_address'],
  ['short IPv4', `http://127.1:${P()}/`, 'blocked_address'],
  ['mixed hex dotted IPv4', `http://0x7f.1:${P()}/`, 'blocked_address'],
  ['IPv4-mapped IPv6', `http://[::ffff:127.0.0.1]:${P()}/`, 'blocked_address'],
  ['IPv4-mapped IPv6, hex form', `http://[::ffff:7f00:1]:${P()}/`, 'blocked_address'],
  ['NAT64 of loopback', `http://[64:ff9b::7f00:1]:${P()}/`, 'blocked_address'],
  ['6to4 of loopback', `http://[2002:7f00:1::]:${P()}/`, 'blocked_address'],
  ['unspecified IPv4', `http://0.0.0.0:${P()}/`, 'blocked_address'],
  ['unspecified IPv6', `http://[::]:${P()}/`, 'blocked_address'],
  ['trailing-dot loopback', `http://127.0.0.1.:${P()}/`, 'blocked_address'],
  ['localhost', `http://localhost:${P()}/`, 'blocked_address'],
  ['subdomain of localhost', `http://api.localhost:${P()}/`, 'blocked_address'],
  ['cloud metadata IPv4', 'http://169.254.169.254/latest/meta-data/', 'blocked_address'],
  ['cloud metadata IPv6', 'http://[fd00:ec2::254]/latest/meta-data/', 'blocked_address'],
  ['GCP metadata host', 'http://metadata.google.internal/computeMetadata/v1/', 'blocked_address'],
  ['private 10/8', `http://10.0.0.1:${P()}/`, 'blocked_address'],
  ['private 172.16/12', `http://172.16.5.4:${P()}/`, 'blocked_address'],
  ['private 192.168/16', `http://192.168.1.1:${P()}/`, 'blocked_address'],
  ['CGNAT 100.64/10', `http://100.64.0.1:${P()}/`, 'blocked_address'],
  ['unique-local IPv6', `http://[fc00::1]:${P()}/`, 'blocked_address'],
  ['link-local IPv6', `http://[fe80::1]:${P()}/`, 'blocked_address'],
  ['link-local IPv4', `http://169.254.1.1:${P()}/`, 'blocked_address'],
  ['multicast IPv4', `http://224.0.0.1:${P()}/`, 'blocked_address'],
  ['broadcast IPv4', `http://255.255.255.255:${P()}/`, 'blocked_address'],
  ['multicast IPv6', `http://[ff02::1]:${P()}/`, 'blocked_address'],
  ['host name resolving to loopback', `http://evil.test:${P()}/`, 'dns'],
  ['host name resolving to IPv6 loopback', `http://evil6.test:${P()}/`, 'dns'],
  ['host name resolving to metadata', `http://meta.test:${P()}/`, 'dns'],
  ['host name with one public and one private answer', `http://mixed.test:${P()}/`, 'dns'],
  ['credentials in URL', `http://user:secret@127.0.0.2:${P()}/`, 'credentials'],
  ['ftp scheme', `ftp://127.0.0.2:${P()}/file`, 'scheme'],
  ['file scheme', 'file:///etc/passwd', 'scheme'],
  ['gopher scheme', `gopher://127.0.0.1:${P()}/_GET`, 'scheme'],
  ['data scheme', 'data:text/html,<p>hi</p>', 'scheme'],
  ['javascript scheme', 'javascript:alert(1)', 'scheme'],
  ['not a URL', 'http://', 'invalid_url'],
];

const redirectHostile = (): Array<[string, string, string]> => [
  ['redirect to loopback', `http://127.0.0.1:{P}/`, 'blocked_address'],
  ['redirect to IPv6 loopback', `http://[::1]:{P}/`, 'blocked_address'],
  ['redirect to decimal IPv4', `http://2130706433:{P}/`, 'blocked_address'],
  ['redirect to octal IPv4', `http://0177.0.0.1:{P}/`, 'blocked_address'],
  ['redirect to IPv4-mapped IPv6', `http://[::ffff:127.0.0.1]:{P}/`, 'blocked_address'],
  ['redirect to metadata', 'http://169.254.169.254/latest/meta-data/iam/', 'blocked_address'],
  ['redirect to private 10/8', `http://10.1.2.3:{P}/`, 'blocked_address'],
  ['redirect to a name resolving to loopback', `http://evil.test:{P}/`, 'dns'],
  ['redirect to localhost', `http://localhost:{P}/`, 'blocked_address'],
  ['redirect to file:', 'file:///etc/passwd', 'scheme'],
  ['redirect to gopher:', `gopher://127.0.0.1:{P}/`, 'scheme'],
  ['redirect with credentials', `http://admin:pw@127.0.0.2:{P}/`, 'credentials'],
];

describe('SSRF guard', () => {
  it('refuses every hostile URL without a single request reaching the victim', async () => {
    const cases = directHostile();
    expect(cases.length).toBeGreaterThanOrEqual(30);
    for (const [name, url, reason] of cases) {
      const outcome = await strict.fetchDocument(url, { noCache: true }).then(
        () => 'fetched',
        (error: { reason?: string }) => error.reason,
      );
      expect({ name, outcome }).toEqual({ name, outcome: reason });
    }
    expect(victim.totalHits()).toBe(0);
  });

  it('counts refused candidate sources in sources_rejected_total', async () => {
    const cases = directHostile();
    const { sources, rejected, duplicates } = await strict.fetchSources(
      cases.map(([, url]) => url),
      { max_sources: 100, max_pages_per_domain: 100, max_total_download_bytes: 10_000_000 },
    );
    expect(sources).toEqual([]);
    // Spellings of one address normalise to one URL: the repeats are duplicates, the rest refused.
    expect(rejected.length + duplicates).toBe(cases.length);
    expect(await counters.counter('sources_rejected_total', { reason: 'blocked_address' })).toBe(
      rejected.filter((r) => r.reason === 'blocked_address').length,
    );
    expect(await counters.counter('sources_rejected_total', { reason: 'scheme' })).toBe(5);
    expect(victim.totalHits()).toBe(0);
  });

  it.each(redirectHostile().map(([name, to, reason]) => [name, to, reason]))(
    'refuses a %s at that hop',
    async (_name, to, reason) => {
      const before = redirector.totalHits();
      const target = (to as string).replace('{P}', String(P()));
      await expect(
        viaRedirects.fetchDocument(`${redirector.origin}/r?to=${encodeURIComponent(target)}`, { noCache: true }),
      ).rejects.toMatchObject({ reason });
      expect(redirector.totalHits()).toBe(before + 1);
      expect(victim.totalHits()).toBe(0);
    },
  );

  it('re-checks every hop of a longer chain through a public site', async () => {
    const target = `http://127.0.0.1:${P()}/`;
    await expect(
      viaRedirects.fetchDocument(`${redirector.origin}/hop?left=3&to=${encodeURIComponent(target)}`, { noCache: true }),
    ).rejects.toMatchObject({ reason: 'blocked_address' });
    expect(victim.totalHits()).toBe(0);
  });

  it('stops a redirect loop after 5 redirects', async () => {
    const before = redirector.totalHits();
    await expect(viaRedirects.fetchDocument(`${redirector.origin}/loop`, { noCache: true })).rejects.toMatchObject({
      reason: 'too_many_redirects',
    });
    expect(redirector.totalHits() - before).toBe(6);
  });

  it('connects to the address it checked: a rebinding answer after the check is refused', async () => {
    const validation = await viaRedirects.validateUrl(`http://rebind.test:${P()}/`);
    expect(validation).toMatchObject({ allowed: true, normalized_url: `http://rebind.test:${P()}/` });
    await expect(viaRedirects.fetchDocument(`http://rebind.test:${P()}/`, { noCache: true })).rejects.toMatchObject({
      reason: 'dns',
    });
    expect(victim.totalHits()).toBe(0);
  });

  it('answers a name resolving to a refused address exactly as a name that does not resolve; the log tells them apart', async () => {
    const log = createCapturingLogger();
    const guarded = createCrawler({
      config: crawlerConfig({ CRAWLER_RESPECT_ROBOTS: 'false' }),
      logger: log.logger,
      metrics: counters.metrics,
      options: {
        resolver: fakeResolver({ 'intranet.test': ['10.0.0.7'] }),
        extraction: { threads: 1 },
        politenessDelayMs: 0,
      },
    });
    const answers = async (host: string) => {
      const fetched = await guarded.fetchDocument(`http://${host}/page`, { noCache: true }).then(
        () => null,
        (error: { reason: string; message: string }) => ({ reason: error.reason, message: error.message }),
      );
      const validation = await guarded.validateUrl(`http://${host}/page`);
      return { fetched, validation };
    };
    try {
      const internal = await answers('intranet.test');
      const missing = await answers('missing.test');
      expect(internal.fetched).toEqual({
        reason: 'dns',
        message: 'The host intranet.test does not resolve to an address the crawler may fetch.',
      });
      expect(JSON.stringify(internal).replaceAll('intranet', 'missing')).toBe(JSON.stringify(missing));
      expect(log.text()).toContain('resolves to refused address 10.0.0.7');
      expect(log.text()).toContain('not resolved: ENOTFOUND');
    } finally {
      await guarded.close();
    }
  });

  it('validates URLs without fetching them', async () => {
    await expect(strict.validateUrl(`http://0x7f000001:${P()}/a#frag`)).resolves.toEqual({
      allowed: false,
      normalized_url: `http://127.0.0.1:${P()}/a`,
      reason: 'blocked_address',
    });
    await expect(strict.validateUrl('ftp://example.org/')).resolves.toMatchObject({ allowed: false, reason: 'scheme' });
    await expect(viaRedirects.validateUrl(`http://public.test:${P()}/x?utm_source=a&b=2&a=1`)).resolves.toEqual({
      allowed: true,
      normalized_url: `http://public.test:${P()}/x?a=1&b=2`,
    });
    expect(victim.totalHits()).toBe(0);
  });

  it('still fetches a public page through the same guard (the refusals above are not an outage)', async () => {
    const document = await viaRedirects.fetchDocument(`${redirector.origin}/r?to=/ok`, { noCache: true });
    expect(document.title).toBe('Public page');
    expect(document.url).toBe(`${redirector.origin}/ok`);
    const named = await viaRedirects.fetchDocument(`http://public.test:${redirector.port}/ok`, { noCache: true });
    expect(named.content).toContain('public study number 1');
  });

  it('reaches private addresses only when CRAWLER_ALLOW_PRIVATE_NETWORKS is true, never the metadata service', async () => {
    const open = createCrawler({
      config: crawlerConfig({ CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true', CRAWLER_RESPECT_ROBOTS: 'false' }),
      logger: silentLogger,
      metrics: counters.metrics,
      options: { extraction: { threads: 1 }, politenessDelayMs: 0 },
    });
    try {
      const document = await open.fetchDocument(`http://127.0.0.1:${P()}/allowed`, { noCache: true });
      expect(document.title).toBe('Secret');
      expect(victim.hitsOf('/allowed')).toBe(1);
      await expect(open.validateUrl('http://169.254.169.254/')).resolves.toMatchObject({ allowed: false });
    } finally {
      await open.close();
    }
  });
});
