import request from 'supertest';
import { startFakeSite, type FakeSite } from '../../crawler/support';
import { buildMountedApp, type MountedTestApp } from './support';

const ARTICLE = `<!DOCTYPE html><html lang="en"><head><title>Remote work study</title></head><body><main><h1>Remote work study</h1>
<p>${'A study published in 2021 found that productivity at home rose by 13 percent over two years. '.repeat(8)}</p></main></body></html>`;

describe('crawler routes', () => {
  let site: FakeSite;
  let open: MountedTestApp;
  let guarded: MountedTestApp;
  beforeAll(async () => {
    site = await startFakeSite((req, res) => {
      if (req.url === '/robots.txt')
        return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private');
      if (req.url === '/article' || req.url === '/private/page')
        return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ARTICLE);
      if (req.url === '/image.png')
        return void res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(100));
      if (req.url === '/big')
        return void res
          .writeHead(200, { 'content-type': 'text/html' })
          .end('<p>' + 'x'.repeat(6 * 1024 * 1024) + '</p>');
      res.writeHead(404).end();
    });
    // Loopback fakes need CRAWLER_ALLOW_PRIVATE_NETWORKS; the guarded app keeps the default (refused).
    open = await buildMountedApp('mountedcrawler', {
      env: { CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true', CRAWLER_TIMEOUT_MS: '3000' },
    });
    guarded = await buildMountedApp('mountedcrawlerguard');
  });
  afterAll(async () => {
    await guarded.close();
    await open.close();
    await site.close();
  });
  const post = (m: MountedTestApp, path: string, body: unknown, key: string | null = m.t.owner.key) => {
    const r = request(m.app).post(path);
    return (key ? r.set('X-API-Key', key) : r).send(body as object);
  };

  it('fetches one page and answers its extracted text and metadata', async () => {
    const res = await post(open, '/crawler/fetch', { url: `${site.origin}/article`, max_chars: 50 }).expect(200);
    expect(res.body).toMatchObject({
      url: `${site.origin}/article`,
      title: 'Remote work study',
      content_kind: 'html',
      truncated: true,
      from_cache: false,
    });
    expect(res.body.content).toHaveLength(50);
    expect(res.body.content_length).toBeGreaterThan(500);
  });

  it('refuses loopback addresses by default, and robots.txt and non-documents always, with 422', async () => {
    const blocked = await post(guarded, '/crawler/fetch', { url: `${site.origin}/article` }).expect(422);
    expect(blocked.body.detail).toMatch(/^url: blocked_address: /);
    const robots = await post(open, '/crawler/fetch', { url: `${site.origin}/private/page` }).expect(422);
    expect(robots.body.detail).toMatch(/^url: robots: /);
    const image = await post(open, '/crawler/fetch', { url: `${site.origin}/image.png` }).expect(422);
    expect(image.body.detail).toMatch(/^url: unsupported_type: /);
    const big = await post(open, '/crawler/fetch', { url: `${site.origin}/big` }).expect(422);
    expect(big.body.detail).toMatch(/^url: too_large: /);
    const scheme = await post(open, '/crawler/fetch', { url: 'file:///etc/passwd' }).expect(422);
    expect(scheme.body.detail).toMatch(/^url: scheme: /);
  });

  it('fetches a batch with partial success, in order', async () => {
    const res = await post(open, '/crawler/fetch/batch', {
      urls: [`${site.origin}/article`, `${site.origin}/missing`, 'ftp://example.org/x'],
    }).expect(200);
    expect(res.body).toMatchObject({ total: 3, succeeded: 1, failed: 2 });
    expect(res.body.results.map((r: { ok: boolean }) => r.ok)).toEqual([true, false, false]);
    expect(res.body.results[1].error.reason).toBe('http_status');
    expect(res.body.results[2].error.reason).toBe('scheme');
    expect(res.body.results[0].document.title).toBe('Remote work study');
  });

  it.each([
    ['no urls', { urls: [] }, 'urls: must have at least 1 item'],
    [
      '11 urls',
      { urls: Array.from({ length: 11 }, (_, i) => `https://example.org/${i}`) },
      'urls: must have at most 10 items',
    ],
    ['a number', { urls: [5] }, 'urls.0: must be a string'],
  ])('refuses a batch with %s (422)', async (_label, body, detail) => {
    await post(open, '/crawler/fetch/batch', body).expect(422, { detail });
  });

  it('validates URLs: normalised form, allowed or the reason', async () => {
    const ok = await post(open, '/crawler/validate-url', { url: `${site.origin}/article?utm_source=x#top` }).expect(
      200,
    );
    expect(ok.body).toEqual({
      url: `${site.origin}/article?utm_source=x#top`,
      normalized_url: `${site.origin}/article`,
      allowed: true,
      reason: null,
    });
    const robots = await post(open, '/crawler/validate-url', { url: `${site.origin}/private/x` }).expect(200);
    expect(robots.body).toMatchObject({ allowed: false, reason: 'robots' });
    const blocked = await post(guarded, '/crawler/validate-url', {
      url: 'http://169.254.169.254/latest/meta-data',
    }).expect(200);
    expect(blocked.body).toMatchObject({ allowed: false, reason: 'blocked_address' });
    const scheme = await post(open, '/crawler/validate-url', { url: 'gopher://example.org/' }).expect(200);
    expect(scheme.body).toMatchObject({ allowed: false, reason: 'scheme' });
  });

  it('needs a key for every crawler route', async () => {
    for (const path of ['/crawler/fetch', '/crawler/fetch/batch', '/crawler/validate-url']) {
      await post(open, path, { url: `${site.origin}/article` }, null).expect(401);
    }
  });
});
