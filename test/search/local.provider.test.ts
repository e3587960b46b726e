import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import iconv from 'iconv-lite';
import { MAX_PDF_PAGES } from '@research/core';
import {
  createLocalProvider,
  PdfTextExtractor,
  LocalDocumentError,
  readLocalDocument,
  toLocalUrl,
  type LocalSearchProvider,
} from '@research/search';
import { waitFor } from '../support/wait';
import { captureLogger } from './support/capture-logger';
import { makePdf } from './support/pdf-bytes';
import { textContent, writePdf } from '../support/pdf';

async function makeCorpus(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'corpus-'));
  await fs.mkdir(path.join(dir, 'reports', 'energy 2024'), { recursive: true });
  await fs.writeFile(
    path.join(dir, 'photosynthesis.md'),
    '---\ntitle: Photosynthesis notes\n---\n# Ignored heading\n\nPhotosynthesis turns **light** into chemical energy. ' +
      'Photosynthesis happens in chloroplasts; photosynthesis releases oxygen. See [the review](https://example.org/r).\n',
  );
  await fs.writeFile(path.join(dir, 'plants.txt'), 'Plants\n\nPlants need water, light and some photosynthesis.\n');
  await fs.writeFile(
    path.join(dir, 'reports', 'wind.html'),
    '<!doctype html><html><head><title>Wind &amp; weather</title><style>.x{color:red}</style>' +
      '<script>var turbine = "hidden";</script></head><body><h1>Wind</h1><p>Wind turbines convert kinetic energy ' +
      'into electricity &ndash; offshore parks deliver most.</p></body></html>',
  );
  await fs.writeFile(
    path.join(dir, 'reports', 'energy 2024', 'solar.pdf'),
    makePdf(
      ['Solar cells convert sunlight into electricity.', 'Perovskite efficiency reached 26 percent.'],
      'Solar report',
    ),
  );
  await fs.writeFile(path.join(dir, '.hidden.md'), 'photosynthesis secret draft');
  await fs.writeFile(path.join(dir, 'image.png'), 'photosynthesis not text');
  return dir;
}

describe('local corpus search provider', () => {
  let dir: string;
  let provider: LocalSearchProvider | undefined;
  beforeEach(async () => {
    dir = await makeCorpus();
  });
  afterEach(async () => {
    await provider?.close();
    provider = undefined;
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('indexes markdown, text, html and pdf files and waits for the first build', async () => {
    provider = createLocalProvider({ corpusDir: dir, logger: captureLogger().logger, pollIntervalMs: 0 });
    // Called at once: the search waits for the initial build.
    const solar = await provider.search('perovskite sunlight', { language: 'de', limit: 5 });
    expect(solar).toEqual([
      {
        url: 'local:reports/energy%202024/solar.pdf',
        title: 'Solar report',
        snippet: 'Solar cells convert sunlight into electricity.\nPerovskite efficiency reached 26 percent.'.replace(
          '\n',
          ' ',
        ),
        published_at: null,
        provider: 'local',
        rank: 1,
      },
    ]);
    const wind = await provider.search('turbines', { language: 'de', limit: 5 });
    expect(wind.map((h) => [h.url, h.title])).toEqual([['local:reports/wind.html', 'Wind & weather']]);
    expect(wind[0]!.snippet).toContain('Wind turbines convert kinetic energy into electricity – offshore');
    expect(await provider.search('hidden', { language: 'de', limit: 5 })).toEqual([]);
    expect(provider.documentCount).toBe(4);
  });

  it('reads each file in its own charset, as the crawler does: windows-1252 bytes, a <meta> late in the head', async () => {
    const page = (title: string, head = '') =>
      `<!doctype html><html><head><title>${title}</title>${head}</head><body><p>Rainfall in ${title}: ` +
      '“heavy” – records fell.</p></body></html>';
    await fs.writeFile(path.join(dir, 'zurich.html'), iconv.encode(page('Zürich’s rainfall'), 'win1252'));
    const lateMeta = `<style>${'p { margin: 0 }\n'.repeat(100)}</style><meta charset="utf-8">`;
    await fs.writeFile(path.join(dir, 'malmo.html'), page('Malmö’s rainfall', lateMeta));
    provider = createLocalProvider({ corpusDir: dir, logger: captureLogger().logger, pollIntervalMs: 0 });
    const hits = await provider.search('rainfall records', { language: 'en', limit: 5 });
    expect(hits.map((h) => h.title).sort()).toEqual(['Malmö’s rainfall', 'Zürich’s rainfall']);
    for (const hit of hits) expect(hit.snippet).toContain(': “heavy” – records fell.');
  });

  it('ranks by BM25: the document about the terms comes first, case and accents folded', async () => {
    provider = createLocalProvider({ corpusDir: dir, logger: captureLogger().logger, pollIntervalMs: 0 });
    const hits = await provider.search('PHOTOSYNTHESÌS', { language: 'en', limit: 10 });
    expect(hits.map((h) => h.url)).toEqual(['local:photosynthesis.md', 'local:plants.txt']);
    expect(hits.map((h) => h.rank)).toEqual([1, 2]);
    expect(hits[0]!.title).toBe('Photosynthesis notes');
    expect(hits[0]!.snippet).toContain('Photosynthesis turns light into chemical energy.');
    expect(hits[0]!.snippet).not.toContain('https://example.org');
    expect(await provider.search('photosynthesis', { language: 'en', limit: 1 })).toHaveLength(1);
  });

  it('follows files added, changed and removed while it runs (file events)', async () => {
    provider = createLocalProvider({
      corpusDir: dir,
      logger: captureLogger().logger,
      pollIntervalMs: 0,
      debounceMs: 50,
    });
    await provider.whenReady();
    const find = (q: string) => provider!.search(q, { language: 'de', limit: 5 });

    await fs.writeFile(path.join(dir, 'reports', 'geothermal.md'), '# Geothermal\n\nGeothermal heat from the crust.');
    await waitFor('the added file', async () => (await find('geothermal')).length === 1, 10_000, 50);

    await fs.writeFile(path.join(dir, 'plants.txt'), 'Plants\n\nMycorrhiza helps roots take up water.');
    await waitFor('the changed file', async () => (await find('mycorrhiza')).length === 1, 10_000, 50);
    expect((await find('photosynthesis')).map((h) => h.url)).toEqual(['local:photosynthesis.md']);

    await fs.rm(path.join(dir, 'reports', 'wind.html'));
    await waitFor('the removed file', async () => (await find('turbines')).length === 0, 10_000, 50);
  });

  it('notices changes by polling when file events are off', async () => {
    provider = createLocalProvider({
      corpusDir: dir,
      logger: captureLogger().logger,
      watch: false,
      pollIntervalMs: 100,
    });
    await provider.whenReady();
    await fs.writeFile(path.join(dir, 'tides.txt'), 'Tidal power uses the tides.');
    await waitFor(
      'the polled file',
      async () => (await provider!.search('tidal', { language: 'de', limit: 5 })).length === 1,
      10_000,
      50,
    );
  });

  it('skips a broken PDF, keeps the rest, and reports a missing corpus folder', async () => {
    await fs.writeFile(path.join(dir, 'broken.pdf'), '%PDF-1.4 this is not really a pdf');
    const { logger, text } = captureLogger();
    provider = createLocalProvider({ corpusDir: dir, logger, pollIntervalMs: 0 });
    expect(await provider.search('turbines', { language: 'de', limit: 5 })).toHaveLength(1);
    expect(text()).toContain('local corpus file skipped');
    expect(text()).toContain('broken.pdf');

    const missing = createLocalProvider({
      corpusDir: path.join(dir, 'nope'),
      logger: captureLogger().logger,
      pollIntervalMs: 0,
    });
    try {
      await expect(missing.search('x', { language: 'de', limit: 5 })).rejects.toThrow(
        /^Search provider local cannot read its corpus folder/,
      );
    } finally {
      await missing.close();
    }
  });
});

describe('readLocalDocument', () => {
  let dir: string;
  let outside: string;
  beforeAll(async () => {
    dir = await makeCorpus();
    outside = await fs.mkdtemp(path.join(os.tmpdir(), 'outside-'));
    await fs.writeFile(path.join(outside, 'secret.md'), 'top secret');
    await fs.symlink(path.join(outside, 'secret.md'), path.join(dir, 'link.md'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(outside, { recursive: true, force: true });
  });

  it('reads a corpus document back by its local: URL, PDFs and HTML as text', async () => {
    const pdf = await readLocalDocument(toLocalUrl('reports/energy 2024/solar.pdf'), dir);
    expect(pdf).toMatchObject({
      url: 'local:reports/energy%202024/solar.pdf',
      title: 'Solar report',
      contentType: 'application/pdf',
    });
    expect(pdf.text).toContain('Perovskite efficiency reached 26 percent.');
    expect(pdf.bytes).toBeGreaterThan(100);
    expect(Date.parse(pdf.modifiedAt)).not.toBeNaN();
    const html = await readLocalDocument('local:reports/wind.html', dir);
    expect(html.text).toBe(
      'Wind\nWind turbines convert kinetic energy into electricity – offshore parks deliver most.',
    );
  });

  it('refuses URLs that leave the corpus folder', async () => {
    for (const url of [
      'local:../secret.md',
      'local:%2e%2e/secret.md',
      'local:/etc/passwd.txt',
      'local:a%2F..%2F..%2Fx.md',
      'https://example.org/a.md',
    ]) {
      await expect(readLocalDocument(url, dir)).rejects.toBeInstanceOf(LocalDocumentError);
    }
    await expect(readLocalDocument('local:link.md', dir)).rejects.toThrow('The document lies outside the local corpus');
    await expect(readLocalDocument('local:missing.md', dir)).rejects.toThrow('No such corpus document: missing.md');
    await expect(readLocalDocument('local:image.png', dir)).rejects.toThrow('Not a supported corpus file type');
  });
});

describe('hostile PDFs in the corpus', () => {
  it(`reads the first ${MAX_PDF_PAGES} pages of a longer PDF, as the crawler does (it was refused whole)`, async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'corpus-'));
    const extractor = new PdfTextExtractor();
    try {
      const line = (page: number) => `This is page number ${page} of the long report.`;
      const pages = Array.from({ length: MAX_PDF_PAGES + 10 }, (_, i) => ({ content: textContent([line(i + 1)]) }));
      await fs.writeFile(path.join(dir, 'long.pdf'), writePdf(pages));
      const { text } = await readLocalDocument('local:long.pdf', dir, extractor);
      expect(text).toContain(line(1));
      expect(text).toContain(line(MAX_PDF_PAGES));
      expect(text).not.toContain(line(MAX_PDF_PAGES + 1));
    } finally {
      await extractor.close();
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
