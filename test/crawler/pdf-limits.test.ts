import zlib from 'node:zlib';
import { MAX_PDF_PAGES, pdfOverLimits } from '@research/core';
import { createCrawler, type Crawler } from '@research/crawler';
import { PdfTextExtractor } from '@research/search';
import { pdfBomb, textContent, writePdf } from '../support/pdf';
import { crawlerConfig, silentLogger, startFakeSite, testMetrics, type FakeSite } from './support';

// Issue 10: a PDF with a 420 MB content stream held a pool thread until its timeout, at 606 MB RSS.
let bomb: Buffer;
let site: FakeSite;
let crawler: Crawler;
const pages = Array.from({ length: MAX_PDF_PAGES + 10 }, (_, i) => ({
  content: zlib.deflateSync(textContent([`This is page number ${i + 1} of the long report.`])),
  filter: 'FlateDecode',
}));

beforeAll(async () => {
  bomb = await pdfBomb(420 * 1024 * 1024);
  const long = writePdf(pages);
  site = await startFakeSite((req, res) => {
    const body = req.url === '/bomb.pdf' ? bomb : req.url === '/long.pdf' ? long : null;
    if (!body) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/pdf' }).end(body);
  });
  crawler = createCrawler({
    config: crawlerConfig({ CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true', CRAWLER_RESPECT_ROBOTS: 'false' }),
    logger: silentLogger,
    metrics: testMetrics().metrics,
    options: { extraction: { threads: 1 }, politenessDelayMs: 0 },
  });
}, 120_000);

afterAll(async () => {
  await crawler?.close();
  await site?.close();
});

describe('PDF limits', () => {
  it('refuses a PDF whose content stream inflates to 420 MB, quickly and without the memory', async () => {
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 10);
    const started = performance.now();
    try {
      await expect(crawler.fetchDocument(`${site.origin}/bomb.pdf`, { noCache: true })).rejects.toMatchObject({
        reason: 'too_large',
        message: `The PDF's content inflates to more than ${64 * 1024 * 1024} bytes.`,
      });
    } finally {
      clearInterval(sampler);
    }
    expect(performance.now() - started).toBeLessThan(10_000);
    // The pool thread is part of this process: its memory shows here. Inflating the stream took 606 MB.
    expect(rssPeak - rssBefore).toBeLessThan(200 * 1024 * 1024);
  });

  it('reads the text of the first MAX_PDF_PAGES pages of a longer PDF', async () => {
    const document = await crawler.fetchDocument(`${site.origin}/long.pdf`, { noCache: true });
    expect(document.content).toContain('This is page number 1 of the long report.');
    expect(document.content).toContain(`This is page number ${MAX_PDF_PAGES} of the long report.`);
    expect(document.content).not.toContain(`This is page number ${MAX_PDF_PAGES + 1} of the long report.`);
  });

  it('passes ordinary PDFs, compressed or not, and counts every stream of one file together', () => {
    expect(pdfOverLimits(writePdf(pages))).toBeNull();
    expect(pdfOverLimits(writePdf([{ content: textContent(['Plain text, no filter.']) }]))).toBeNull();
    const mb = zlib.deflateSync(Buffer.alloc(1024 * 1024, 0x20));
    const tenPages = writePdf(Array.from({ length: 10 }, () => ({ content: mb, filter: 'FlateDecode' })));
    expect(pdfOverLimits(tenPages, 11 * 1024 * 1024)).toBeNull();
    expect(pdfOverLimits(tenPages, 9 * 1024 * 1024)).toMatch(/inflates to more than/);
  });
});

describe('hostile PDFs in the local corpus', () => {
  it('refuses a PDF zip bomb quickly, with the reason', async () => {
    const extractor = new PdfTextExtractor();
    try {
      const started = performance.now();
      await expect(extractor.extract(await pdfBomb(128 * 1024 * 1024))).rejects.toThrow(
        /PDF could not be read: The PDF's content inflates to more than \d+ bytes/,
      );
      expect(performance.now() - started).toBeLessThan(10_000);
    } finally {
      await extractor.close();
    }
  }, 60_000);
});
