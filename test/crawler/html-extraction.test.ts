import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { createExtractionPool, type ExtractionPool } from '@research/crawler';

// One thread: every page below goes through the same thread, and so the same jsdom window, in turn.
let pool: ExtractionPool;
beforeAll(() => {
  pool = createExtractionPool({ threads: 1 });
});
afterAll(async () => {
  await pool?.close();
});

const PAGE_URL = 'https://news.example.org/2024/03/solar';

function extract(html: string, url = PAGE_URL) {
  return pool.extract({ body: Buffer.from(html), contentType: 'text/html; charset=utf-8', kind: 'html', url });
}

const ARTICLE =
  '<p>Solar farms in the region produced more electricity in March than in any month before, the grid operator ' +
  'said on Tuesday. Output rose by a fifth compared with the same month a year earlier, as new panels came online ' +
  'and the weather stayed clear for most of the month.</p>' +
  '<p>The operator expects the trend to continue through the summer, when days are longest and demand for ' +
  'cooling is highest. Storage projects now under construction will shift part of the midday surplus to the evening.</p>';

function page(head: string, body = `<article><h1>Solar output rises</h1>${ARTICLE}</article>`, htmlAttributes = '') {
  return `<!doctype html><html${htmlAttributes}><head><title>Solar output rises</title>${head}</head><body>${body}</body></html>`;
}

describe('metadata of an HTML page', () => {
  it('reads meta tags, JSON-LD, links and the language, whatever the letter case of their names', async () => {
    const doc = await extract(
      page(
        '<META NAME="Generator" CONTENT="WordPress 6.4">' +
          '<meta property="og:type" content="Article">' +
          '<meta name="citation_title" content="Solar output">' +
          '<meta name="DC.Date.Issued" content="2024-03-05">' +
          '<link rel="stylesheet alternate" href="/print.css"><link rel="Canonical" href="/2024/03/solar-output">' +
          '<script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"NewsArticle"},' +
          '{"@type":"Organization"}]}</script>',
        `<article><h1>Solar output rises</h1>${ARTICLE}</article><footer><time datetime="2020-01-01">Archive</time></footer>`,
        ' lang="en-GB"',
      ),
    );
    expect(doc).toMatchObject({
      title: 'Solar output rises',
      language: 'en-GB',
      canonicalUrl: 'https://news.example.org/2024/03/solar-output',
      // No datePublished in the JSON-LD: the Dublin Core date comes before any <time> on the page.
      publishedAt: '2024-03-05T00:00:00.000Z',
      hints: {
        ogType: 'article',
        generator: 'WordPress 6.4',
        scholarly: true,
        jsonLdTypes: ['NewsArticle', 'Organization'],
      },
    });
    expect(doc.content).toContain('Solar farms in the region produced more electricity');
  });

  it('dates a page by JSON-LD first, then meta tags, then the marked <time>, one in the article, any other', async () => {
    const jsonLdAndMeta = await extract(
      page(
        '<meta property="article:published_time" content="2022-06-01T08:00:00Z">' +
          '<script type="application/ld+json">{"@type":"NewsArticle","datePublished":"2023-01-02T10:00:00Z"}</script>',
      ),
    );
    expect(jsonLdAndMeta.publishedAt).toBe('2023-01-02T10:00:00.000Z');

    const inArticle = await extract(
      page(
        '',
        `<nav><time datetime="2019-05-05">May</time></nav><article><header><time datetime="2021-07-07T12:00:00Z">July</time>` +
          `</header>${ARTICLE}</article>`,
      ),
    );
    expect(inArticle.publishedAt).toBe('2021-07-07T12:00:00.000Z');

    const marked = await extract(
      page(
        '',
        `<article><time datetime="2021-07-07">July</time>${ARTICLE}<time itemprop="datePublished" datetime="2018-02-03">` +
          'Feb</time></article>',
      ),
    );
    expect(marked.publishedAt).toBe('2018-02-03T00:00:00.000Z');

    const onlyAny = await extract(page('', `<div>${ARTICLE}</div><p><time datetime="2017-09-09">Sept</time></p>`));
    expect(onlyAny.publishedAt).toBe('2017-09-09T00:00:00.000Z');

    const none = await extract(page('<meta name="date" content="not a date">'));
    expect(none.publishedAt).toBeNull();
  });

  it('falls back to og:url for the canonical URL and to Content-Language or og:locale for the language', async () => {
    const withHttpEquiv = await extract(
      page(
        '<meta http-equiv="Content-Language" content="fr"><meta property="og:url" content="https://news.example.org/a">',
      ),
    );
    expect(withHttpEquiv).toMatchObject({ language: 'fr', canonicalUrl: 'https://news.example.org/a' });
    const withLocale = await extract(page('<meta property="og:locale" content="de_DE">'));
    expect(withLocale).toMatchObject({ language: 'de-DE', canonicalUrl: null });
  });
});

describe('pages extracted one after another in a thread', () => {
  it('share nothing: each has its own URL, title, links and dates, over 300 pages', async () => {
    for (let i = 0; i < 300; i++) {
      const dated = i % 2 === 0;
      const doc = await extract(
        page(
          `<link rel="canonical" href="story-${i}">` +
            (dated
              ? `<meta property="article:published_time" content="2024-01-01T00:00:${String(i % 60).padStart(2, '0')}Z">`
              : ''),
          `<article><h1>Story ${i}</h1><p id="lead">Story number ${i} begins here.</p>${ARTICLE}</article>`,
        ).replace('<title>Solar output rises</title>', `<title>Story ${i}</title>`),
        `https://site-${i}.example/news/`,
      );
      const expected = {
        title: `Story ${i}`,
        canonicalUrl: `https://site-${i}.example/news/story-${i}`,
        publishedAt: dated ? `2024-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z` : null,
      };
      // One assertion per page would flood the report; a mismatch names the page.
      if (
        doc.title !== expected.title ||
        doc.canonicalUrl !== expected.canonicalUrl ||
        doc.publishedAt !== expected.publishedAt
      ) {
        expect({ page: i, ...doc }).toMatchObject({ page: i, ...expected });
      }
      if (!doc.content.includes(`Story number ${i} begins here.`)) expect({ page: i, content: doc.content }).toBe(null);
    }
  });

  it('leave nothing behind: the heap after 60 large pages is what it was after the first', () => {
    // A process of its own, so the garbage collector can be asked for a full collection and nothing else of
    // the test run lives in the heap.
    const extractDocument = path.resolve(
      __dirname,
      '..',
      '..',
      'packages',
      'crawler',
      'dist',
      'extract',
      'extract-document.js',
    );
    const script = `
      const { extractDocument } = require(${JSON.stringify(extractDocument)});
      // Elements with an id both in the article (which Readability takes out) and around it (which stays).
      const page = (i) => Buffer.from('<html><head><title>Page ' + i + '</title></head><body><nav>' +
        Array.from({ length: 300 }, (_, k) => '<a id="nav' + k + '" href="/' + k + '">Section ' + k + '</a>').join('') +
        '</nav><article>' +
        Array.from({ length: 400 }, (_, k) => '<p id="p' + k + '">Paragraph ' + k + ' of page ' + i +
          ' says something about the river and the bridge.</p>').join('') + '</article></body></html>');
      const settle = async () => {
        for (let k = 0; k < 4; k++) { global.gc(); await new Promise((r) => setImmediate(r)); }
        return process.memoryUsage().heapUsed;
      };
      const run = (i) => extractDocument({ body: page(i), contentType: 'text/html', kind: 'html', url: 'http://site.test/' + i });
      (async () => {
        await run(0);
        const before = await settle();
        for (let i = 1; i <= 60; i++) { await run(i); await new Promise((r) => setImmediate(r)); }
        console.log(JSON.stringify({ growthMb: ((await settle()) - before) / 1048576 }));
      })();
    `;
    const child = spawnSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    const { growthMb } = JSON.parse(child.stdout.trim()) as { growthMb: number };
    // A page of this size holds ~1 MiB of DOM: kept pages would show as tens of MiB here.
    expect(growthMb).toBeLessThan(5);
  });
});

describe('hostile pages', () => {
  // 5 MB each: the crawler's page cap. Stripping scripts by regex rescanned the rest of the page from every
  // `<script` without a closing tag (a page like this held a pool thread until its timeout).
  it.each([
    ['an unclosed <script> repeated', '<script>x '],
    ['an unclosed <script without its ">" repeated', '<script '],
    ['an unclosed <style> repeated', '<style>x '],
  ])('reads a 5 MB page of %s in seconds', async (_name, fragment) => {
    const body = `<article><h1>Solar output rises</h1>${ARTICLE}</article>${fragment.repeat(Math.floor((5_000_000 - ARTICLE.length) / fragment.length))}`;
    const started = performance.now();
    const doc = await extract(page('', body));
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(doc.content).toContain('Solar farms in the region produced more electricity');
  });

  it('still drops closed scripts and style sheets, and keeps JSON-LD', async () => {
    const doc = await extract(
      page(
        '<style>p { color: red }</style><script type="application/ld+json">{"@type":"NewsArticle"}</script>',
        `<article><h1>Solar output rises</h1>${ARTICLE}<script>document.write("SCRIPT TEXT")</script ></article>`,
      ),
    );
    expect(doc.hints.jsonLdTypes).toEqual(['NewsArticle']);
    expect(doc.content).not.toMatch(/SCRIPT TEXT|color: red/);
  });
});
