import iconv from 'iconv-lite';
import { createCrawler, CRAWLER_AGENT_TOKEN, type Crawler } from '@research/crawler';
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
import { fakeTimeoutsOnly, settlesBeforeNextTurn } from '../support/fake-timers';

/** A one-page PDF with a text layer and document information, written by hand. */
function makePdf(lines: string[], info: { title: string; author: string }): Buffer {
  const content = `BT /F1 12 Tf 72 720 Td 14 TL ${lines.map((l) => `(${l.replace(/[()\\]/g, '\\$&')}) Tj T*`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Title (${info.title}) /Author (${info.author}) /CreationDate (D:20240131120000Z) >>`,
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 6 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

let site: FakeSite;
let crawler: Crawler;
const counters = testMetrics();
let slowActive = 0;
const MAX_PAGE_BYTES = 1024 * 1024;
/** Whether the last /endless response was sent to its end. */
let endless = { finished: false };

beforeAll(async () => {
  site = await startFakeSite(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    switch (path) {
      case '/robots.txt':
        res.writeHead(200, { 'content-type': 'text/plain' });
        return void res.end(
          `User-agent: *\nDisallow: /private/\n\nUser-agent: ${CRAWLER_AGENT_TOKEN}\nDisallow: /no-bots/\nDisallow: /private/\n`,
        );
      case '/private/page':
      case '/no-bots/page':
      case '/open/page':
        return sendHtml(res, articleHtml('Open page', prose('open')));
      case '/slow': {
        slowActive++;
        await new Promise((r) => setTimeout(r, 150));
        slowActive--;
        return sendHtml(res, articleHtml(`Slow ${req.url}`, prose(`slow${req.url}`)));
      }
      case '/endless': {
        // Endless for the crawler: it ends only after 64 times the crawler's cap, more than the socket buffers
        // between them hold, so a crawler that reads on past its cap gets a whole page instead of hanging.
        res.writeHead(200, { 'content-type': 'text/html' });
        const chunk = Buffer.alloc(64 * 1024, 'a');
        let sent = 0;
        endless = { finished: false };
        const pump = () => {
          while (sent < 64 * MAX_PAGE_BYTES) {
            sent += chunk.length;
            if (!res.write(chunk)) return void (res.destroyed || res.once('drain', pump));
            if (res.destroyed) return;
          }
          endless.finished = true;
          res.end();
        };
        return pump();
      }
      case '/hang':
        return; // never answers
      case '/latin1':
        return sendHtml(
          res,
          iconv.encode(articleHtml('Café über Grüße', prose('Müller')), 'latin1'),
          'text/html; charset=ISO-8859-1',
        );
      case '/cp1251-meta': {
        const html = articleHtml(
          'Новости науки',
          ['Учёные сообщили о новом открытии в области физики и химии. '.repeat(4)],
          '<meta charset="windows-1251">',
        );
        return sendHtml(res, iconv.encode(html, 'win1251'), 'text/html');
      }
      case '/late-meta-utf8': {
        // A head of kilobytes of inline script before its <meta charset>, as many real pages have.
        const head = `<script>${'var settings = {"a": 1};\n'.repeat(120)}</script><meta charset="utf-8">`;
        return sendHtml(
          res,
          Buffer.from(articleHtml('It didn’t rain in Zürich', prose('Zürich’s'), head)),
          'text/html',
        );
      }
      case '/undeclared-utf8':
        return sendHtml(res, Buffer.from(articleHtml('Señora Müller’s café', prose('Müller’s'))), 'text/html');
      case '/undeclared-cp1252':
        return sendHtml(
          res,
          iconv.encode(articleHtml('Señora Müller’s café', prose('Müller’s')), 'win1252'),
          'text/html',
        );
      case '/late-meta-in-script': {
        // A <meta> a script writes is no declaration of the page's: the page declares nothing and is UTF-8.
        const head = `<script>${' '.repeat(1200)}document.write('<meta charset="windows-1251">');</script>`;
        return sendHtml(res, Buffer.from(articleHtml('Ødegaard’s notes', prose('Ødegaard’s'), head)), 'text/html');
      }
      case '/sjis-header':
        return sendHtml(
          res,
          iconv.encode(
            articleHtml('日本語の記事', ['東京の研究者は新しい結果を発表しました。これは重要な発見です。'.repeat(4)]),
            'Shift_JIS',
          ),
          'text/html; charset=Shift_JIS',
        );
      case '/sjis-meta': {
        const html = articleHtml(
          '日本語のページ',
          ['大阪の大学は新しい研究を始めました。結果は来年発表されます。'.repeat(4)],
          '<meta http-equiv="Content-Type" content="text/html; charset=shift_jis">',
        );
        return sendHtml(res, iconv.encode(html, 'Shift_JIS'), 'text/html');
      }
      case '/report.pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' });
        return void res.end(
          makePdf(['Solar panels convert sunlight into electricity.', 'Efficiency rose to 24 percent in 2023.'], {
            title: 'Solar Report',
            author: 'Jane Doe',
          }),
        );
      case '/notes.txt':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
        return void res.end(
          'Field notes\n\nThe river level rose by two metres after the storm, residents said on Monday.',
        );
      case '/image.png':
        res.writeHead(200, { 'content-type': 'image/png' });
        return void res.end(Buffer.alloc(100));
      case '/data.json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end('{"a":1}');
      default:
        res.writeHead(404, { 'content-type': 'text/plain' });
        return void res.end('not found');
    }
  }, '127.0.0.2');
  crawler = createCrawler({
    config: crawlerConfig({ CRAWLER_TIMEOUT_MS: '1500' }),
    logger: silentLogger,
    metrics: counters.metrics,
    options: {
      resolver: fakeResolver({ 'site.test': ['127.0.0.2'] }),
      addressPolicy: policyWithPublicStandIn(),
      extraction: { threads: 1 },
      politenessDelayMs: 0,
      maxPageBytes: MAX_PAGE_BYTES,
    },
  });
});

afterAll(async () => {
  await crawler?.close();
  await site?.close();
});

const url = (path: string) => `http://site.test:${site.port}${path}`;

describe('robots.txt', () => {
  it('does not fetch a path robots.txt disallows for the crawler, and reads robots.txt once per host', async () => {
    await expect(crawler.fetchDocument(url('/no-bots/page'), { noCache: true })).rejects.toMatchObject({
      reason: 'robots',
    });
    await expect(crawler.fetchDocument(url('/private/page'), { noCache: true })).rejects.toMatchObject({
      reason: 'robots',
    });
    await expect(crawler.fetchDocument(url('/open/page'), { noCache: true })).resolves.toMatchObject({
      title: 'Open page',
    });
    expect(site.hitsOf('/no-bots/page')).toBe(0);
    expect(site.hitsOf('/private/page')).toBe(0);
    expect(site.hitsOf('/robots.txt')).toBe(1);
  });
});

describe('politeness', () => {
  it('never has more than 2 requests in flight to one host', async () => {
    const urls = Array.from({ length: 8 }, (_, i) => url(`/slow?i=${i}`));
    const result = await crawler.fetchSources(urls, {
      max_sources: 20,
      max_pages_per_domain: 20,
      max_total_download_bytes: 10_000_000,
    });
    expect(result.sources).toHaveLength(8);
    expect(slowActive).toBe(0);
    expect(site.maxConcurrent()).toBeLessThanOrEqual(2);
  });
});

describe('limits of one page', () => {
  it('aborts a body that streams forever at the byte cap', async () => {
    // The crawler's clock is Jest's and stands still once the request is out: the page is refused without
    // its timeout's help, and the site's stream is cut off long before its end.
    fakeTimeoutsOnly();
    try {
      const fetching = crawler.fetchDocument(url('/endless'), { noCache: true });
      fetching.catch(() => undefined);
      while (site.hitsOf('/endless') === 0) await jest.advanceTimersByTimeAsync(10);
      await expect(fetching).rejects.toMatchObject({ reason: 'too_large' });
    } finally {
      jest.runOnlyPendingTimers();
      jest.useRealTimers();
    }
    expect(endless.finished).toBe(false);
  });

  it('gives up on a page that does not answer within CRAWLER_TIMEOUT_MS', async () => {
    // The crawler's clock is Jest's (ticked here), the loopback site real: no 1.5 s of waiting.
    fakeTimeoutsOnly();
    try {
      const fetching = crawler.fetchDocument(url('/hang'), { noCache: true });
      fetching.catch(() => undefined);
      // Fake time passes only while the request is on its way (the host's politeness spacing may hold it).
      while (site.hitsOf('/hang') === 0) await jest.advanceTimersByTimeAsync(10);
      expect(await settlesBeforeNextTurn(fetching)).toBe(false);
      await jest.advanceTimersByTimeAsync(1500);
      await expect(fetching).rejects.toMatchObject({ reason: 'timeout' });
    } finally {
      // Whatever the crawler scheduled on the fake clock (the host's next start) still happens.
      jest.runOnlyPendingTimers();
      jest.useRealTimers();
    }
  });

  it('refuses other content types before reading them and counts them', async () => {
    await expect(crawler.fetchDocument(url('/image.png'), { noCache: true })).rejects.toMatchObject({
      reason: 'unsupported_type',
    });
    const result = await crawler.fetchSources([url('/data.json'), url('/image.png?x=1')], {
      max_sources: 5,
      max_pages_per_domain: 5,
      max_total_download_bytes: 1_000_000,
    });
    expect(result.rejected.map((r) => r.reason)).toEqual(['unsupported_type', 'unsupported_type']);
    expect(await counters.counter('sources_rejected_total', { reason: 'unsupported_type' })).toBe(2);
  });
});

describe('content', () => {
  it('decodes ISO-8859-1 from the Content-Type header', async () => {
    const doc = await crawler.fetchDocument(url('/latin1'), { noCache: true });
    expect(doc.title).toBe('Café über Grüße');
    expect(doc.content).toContain('Müller study');
  });

  it('decodes windows-1251 from <meta charset>', async () => {
    const doc = await crawler.fetchDocument(url('/cp1251-meta'), { noCache: true });
    expect(doc.title).toBe('Новости науки');
    expect(doc.content).toContain('Учёные сообщили о новом открытии');
  });

  it('decodes Shift_JIS from the header and from <meta http-equiv>', async () => {
    const fromHeader = await crawler.fetchDocument(url('/sjis-header'), { noCache: true });
    expect(fromHeader.title).toBe('日本語の記事');
    expect(fromHeader.content).toContain('東京の研究者は新しい結果を発表しました');
    const fromMeta = await crawler.fetchDocument(url('/sjis-meta'), { noCache: true });
    expect(fromMeta.content).toContain('大阪の大学は新しい研究を始めました');
  });

  it('decodes a UTF-8 page whose <meta charset> comes after the first 1,024 bytes as UTF-8, as a browser does', async () => {
    const doc = await crawler.fetchDocument(url('/late-meta-utf8'), { noCache: true });
    expect(doc.title).toBe('It didn’t rain in Zürich');
    expect(doc.content).toContain('The Zürich’s study number 1');
    expect(doc.content).not.toMatch(/â€|Ã|\uFFFD/u);
  });

  it('decodes a page declaring no charset as UTF-8 when its bytes are UTF-8, else as windows-1252', async () => {
    for (const path of ['/undeclared-utf8', '/undeclared-cp1252']) {
      const doc = await crawler.fetchDocument(url(path), { noCache: true });
      expect(doc.title).toBe('Señora Müller’s café');
      expect(doc.content).toContain('The Müller’s study number 1');
      expect(doc.content).not.toMatch(/â€|Ã|\uFFFD/u);
    }
  });

  it('takes no charset from a <meta> inside a script', async () => {
    const doc = await crawler.fetchDocument(url('/late-meta-in-script'), { noCache: true });
    expect(doc.title).toBe('Ødegaard’s notes');
  });

  it('reads the text and document information of a PDF', async () => {
    const doc = await crawler.fetchDocument(url('/report.pdf'), { noCache: true });
    expect(doc).toMatchObject({
      kind: 'pdf',
      title: 'Solar Report',
      byline: 'Jane Doe',
      publishedAt: '2024-01-31T12:00:00.000Z',
    });
    expect(doc.content).toContain('Solar panels convert sunlight into electricity.');
    expect(doc.content).toContain('Efficiency rose to 24 percent in 2023.');
  });

  it('reads text/plain as it is', async () => {
    const doc = await crawler.fetchDocument(url('/notes.txt'), { noCache: true });
    expect(doc).toMatchObject({ kind: 'text', title: 'Field notes' });
    expect(doc.content).toBe(
      'Field notes\n\nThe river level rose by two metres after the storm, residents said on Monday.',
    );
  });

  it('returns a source record with the final URL, registrable domain, type and time', async () => {
    const result = await crawler.fetchSources([url('/open/page?utm_source=x#top')], {
      max_sources: 5,
      max_pages_per_domain: 5,
      max_total_download_bytes: 1_000_000,
    });
    expect(result.sources).toHaveLength(1);
    const [source] = result.sources;
    expect(source).toMatchObject({
      url: url('/open/page'),
      title: 'Open page',
      domain: 'site.test',
      source_type: 'other',
      language: 'en',
    });
    expect(Date.parse(source.retrieved_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(source.content).toContain('open study number 1');
    expect(source.content).not.toContain('All rights reserved');
  });
});
