import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DEPTH_BUDGETS, loadConfig, type Budget } from '@research/core';
import { createCrawler, type Crawler } from '@research/crawler';
import type { SearchResultRow, SourceRow } from '@research/database';
import { createMetrics, createSilentLogger } from '@research/observability';
import type { RunNote } from '@research/engine';
import { fetchStep, runBudgetOf, type RunSnapshot, type StepContext } from '@research/pipeline';
import { createSearxngProvider } from '@research/search';
import { startFakeSearxng, type FakeSearxng } from '../fakes/fake-searxng';

// The pipeline's fetch step over the real crawler: budgets carried in the run's usage, events for the report.
describe('the fetch step', () => {
  let server: http.Server;
  let origin: string;
  // A second site: the same pages on another loopback address.
  let otherServer: http.Server;
  let otherOrigin: string;
  let crawler: Crawler;
  const config = loadConfig({
    CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
    CRAWLER_RESPECT_ROBOTS: 'false',
    LOG_LEVEL: 'error',
  });
  const paragraph = 'Photosynthesis converts light energy into chemical energy stored in glucose molecules. ';
  // Pages of their own for the second hop: the film's page names its director, whose page says where she
  // lives without a word of the question.
  const PAGES: Record<string, { title: string; text: string }> = {
    '/big-stone-gap': {
      title: 'Big Stone Gap (film)',
      text: 'Big Stone Gap is a 2014 American romantic comedy film written and directed by Adriana Trigiani. It was shot in Wise County, Virginia, over six weeks in the autumn.',
    },
    '/adriana-trigiani': {
      title: 'Adriana Trigiani',
      text: 'Adriana Trigiani is an author and playwright who resides in Greenwich Village, Manhattan, with her family and has written seventeen novels.',
    },
    '/big-stone-gap-soundtrack': {
      title: 'Big Stone Gap (soundtrack)',
      text: 'Big Stone Gap (soundtrack) is the album of songs from the film, released in 2015 with twelve tracks by country artists.',
    },
    '/critics': {
      title: 'Critics on small-town comedies',
      text: 'Critics called Big Stone Gap a gentle comedy about a small town in the mountains, and its cast warm.',
    },
    '/wise-county': {
      title: 'Wise County',
      text: 'Wise County is a county located in the Commonwealth of Virginia, with coal mining as its historic industry and a population of about forty thousand.',
    },
  };
  let searxng: FakeSearxng;

  beforeAll(async () => {
    const serve: http.RequestListener = (req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      const page = PAGES[req.url ?? ''];
      res.end(
        page
          ? `<html><head><title>${page.title}</title></head><body><article><h1>${page.title}</h1><p>${page.text}</p></article></body></html>`
          : `<html><head><title>${req.url}</title></head><body><article><h1>Page ${req.url}</h1>
        <p>${paragraph.repeat(40)}</p></article></body></html>`,
      );
    };
    server = http.createServer(serve);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    otherServer = http.createServer(serve);
    await new Promise<void>((resolve) => otherServer.listen(0, '127.0.0.2', resolve));
    otherOrigin = `http://127.0.0.2:${(otherServer.address() as AddressInfo).port}`;
    searxng = await startFakeSearxng({
      documents: Object.entries(PAGES).map(([path, page]) => ({ url: `${origin}${path}`, ...page })),
    });
    crawler = createCrawler({
      config,
      logger: createSilentLogger(),
      metrics: createMetrics({ defaultMetrics: false }),
    });
  });
  afterAll(async () => {
    await searxng.close();
    await crawler.close();
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => otherServer.close(resolve));
  });

  function context(
    limits: Partial<Budget>,
    options: { query?: string; queriesUsed?: number; localCorpusDir?: string } = {},
  ): StepContext & { notes: RunNote[] } {
    const notes: RunNote[] = [];
    const budget = runBudgetOf({
      depth: 'quick',
      budget: { ...DEPTH_BUDGETS.quick, ...limits },
      usage: { search_queries: options.queriesUsed ?? 0 },
    });
    const searchProvider = createSearxngProvider({
      baseUrl: searxng.origin,
      logger: createSilentLogger(),
      policy: { retries: 0 },
    });
    return {
      run: { id: 'run', language: 'en', query: options.query ?? 'photosynthesis energy' } as StepContext['run'],
      budget,
      round: 1,
      rounds: 1,
      signal: new AbortController().signal,
      logger: createSilentLogger(),
      metrics: createMetrics({ defaultMetrics: false }),
      services: { llm: null, searchProvider, crawler, localCorpusDir: options.localCorpusDir },
      usage: budget.usage,
      notes,
      note: (note) => void notes.push(note),
      progress: () => undefined,
    };
  }
  const hits = (paths: string[]) =>
    paths.map(
      (p, i) =>
        ({
          url: `${origin}${p}`,
          title: p,
          published_at: null,
          rank: i + 1,
          round: 1,
          position: i,
          query: 'q',
        }) as SearchResultRow,
    );
  // The question's own hits, in this order, of the PAGES on the sites given.
  const questionHits = (query: string, pages: Array<[string, string]>) =>
    pages.map(([site, page], i) => ({
      ...hits([page])[0]!,
      url: `${site}${page}`,
      rank: i + 1,
      query,
      title: PAGES[page]!.title,
    }));
  const snapshot = (searchResults: SearchResultRow[], sources: SourceRow[]): RunSnapshot => ({
    plan: null,
    searchResults,
    sources,
    claims: [],
    evidence: [],
    graph: null,
  });
  const budgetEvents = (ctx: StepContext) => ctx.notes.filter((e) => e.kind === 'budget');

  it("reads a local HTML file as it reads a fetched page: the article, without the site's menus and footer", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'local-corpus-'));
    try {
      const article = `<p>${paragraph.repeat(6)}</p><p>Chlorophyll absorbs red and blue light and reflects green.</p>`;
      fs.writeFileSync(
        path.join(dir, 'leaf.html'),
        '<html><head><title>How leaves work</title></head><body>' +
          '<nav><a href="/">Home</a> <a href="/shop">Shop our seeds and garden tools today.</a></nav>' +
          `<article><h1>How leaves work</h1>${article}</article>` +
          '<footer>Copyright 2024 Garden Site. Sign up for our newsletter to get weekly tips.</footer></body></html>',
      );
      fs.writeFileSync(path.join(dir, 'notes.txt'), 'Leaves are green. Chlorophyll absorbs light.');
      const local = (file: string, i: number) =>
        ({
          url: `local:${file}`,
          title: file,
          published_at: null,
          rank: i + 1,
          round: 1,
          position: i,
          query: 'q',
        }) as SearchResultRow;
      const ctx = context({}, { localCorpusDir: dir });
      const { sources } = await fetchStep(snapshot([local('leaf.html', 0), local('notes.txt', 1)], []), ctx);
      const leaf = sources.find((s) => s.url === 'local:leaf.html')!;
      expect(leaf.title).toBe('How leaves work');
      expect(leaf.content).toContain('Chlorophyll absorbs red and blue light and reflects green.');
      expect(leaf.content).not.toMatch(/Shop our seeds|newsletter|Copyright/);
      // Other files are read as they are.
      expect(sources.find((s) => s.url === 'local:notes.txt')!.content).toBe(
        'Leaves are green. Chlorophyll absorbs light.',
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps the download budget across calls and tells the report when it ran out', async () => {
    const ctx = context({ max_total_download_bytes: 9_000, max_pages_per_domain: 10 });
    const first = (await fetchStep(snapshot(hits(['/a', '/b']), []), ctx)).sources;
    expect(first).toHaveLength(2);
    expect(ctx.usage.download_bytes).toBeGreaterThan(0);
    expect(budgetEvents(ctx)).toEqual([]);
    const second = (await fetchStep(snapshot(hits(['/c', '/d', '/e']), first as unknown as SourceRow[]), ctx)).sources;
    expect(ctx.usage.download_bytes).toBeLessThanOrEqual(9_000);
    expect(first.length + second.length).toBeLessThan(5);
    expect(budgetEvents(ctx)).toEqual([{ kind: 'budget', resource: 'download_bytes', max: 9000, dropped: 0 }]);
  });

  it('takes a second hop: searches the name the pages give that the question needs, and reads its page', async () => {
    const query = 'Where does the director of Big Stone Gap live?';
    const ctx = context({ max_pages_per_domain: 10 }, { query, queriesUsed: 7 });
    const sent = searxng.requests.length;
    const read = await fetchStep(snapshot(hits(['/big-stone-gap', '/wise-county']), []), ctx);
    const asked = searxng.requests.slice(sent).map((r) => r.query.get('q'));
    expect(asked).toContain('Adriana Trigiani');
    expect(read.sources.map((s) => new URL(s.url).pathname)).toEqual(
      expect.arrayContaining(['/big-stone-gap', '/adriana-trigiani']),
    );
    expect(read.searchResults.map((r) => [r.query, new URL(r.url).pathname])).toContainEqual([
      'Adriana Trigiani',
      '/adriana-trigiani',
    ]);
    expect(ctx.usage.search_queries).toBe(7 + asked.length);
    expect(ctx.notes).toContainEqual(expect.objectContaining({ kind: 'bridge', round: 1 }));
  });

  it('spends no query on a second hop when the round has none left or the pages name nothing new', async () => {
    const sent = searxng.requests.length;
    const spent = context({}, { query: 'Where does the director of Big Stone Gap live?', queriesUsed: 10 });
    await fetchStep(snapshot(hits(['/big-stone-gap']), []), spent);
    const nothingNew = context({}, { query: 'photosynthesis energy' });
    await fetchStep(snapshot(hits(['/a']), []), nothingNew);
    expect(searxng.requests.length).toBe(sent);
    expect(spent.usage.search_queries).toBe(10);
  });

  it("keeps a site's last page for a name's page, not for a second page on the subject the site gave", async () => {
    const query = 'Where does the director of Big Stone Gap live?';
    // Every page is on one site, which may give two; three sources, read one a hop: the film's page, then its
    // director's (the name the film's page gives weighs as much as the question), not the soundtrack's.
    const ctx = context({ max_pages_per_domain: 2, max_sources: 3 }, { query, queriesUsed: 7 });
    const titled = hits(['/big-stone-gap', '/big-stone-gap-soundtrack']).map((h) => ({
      ...h,
      query,
      title: PAGES[new URL(h.url).pathname]!.title,
    }));
    const read = await fetchStep(snapshot(titled, []), ctx);
    expect(read.sources.map((s) => new URL(s.url).pathname)).toEqual(['/big-stone-gap', '/adriana-trigiani']);
  });

  it("keeps a page of each site for the round's last hop, where the names the first pages gave lead", async () => {
    const query = 'Where does the director of Big Stone Gap live?';
    // The film's two pages and its director's are on one site, which may give two; two more pages on another.
    // Six sources in three hops of two: the first hop reads one page of each site (the film's, the critics'), not
    // both of the film's, so that the director's page, which the film's page names, still has room.
    const ctx = context({ max_pages_per_domain: 2, max_sources: 6 }, { query, queriesUsed: 7 });
    const found = questionHits(query, [
      [origin, '/big-stone-gap'],
      [origin, '/big-stone-gap-soundtrack'],
      [otherOrigin, '/critics'],
      [otherOrigin, '/wise-county'],
    ]);
    const read = await fetchStep(snapshot(found, []), ctx);
    const paths = read.sources.map((s) => new URL(s.url).pathname);
    expect(paths.slice(0, 2)).toEqual(['/big-stone-gap', '/critics']);
    expect(paths).toContain('/adriana-trigiani');
    expect(paths).not.toContain('/big-stone-gap-soundtrack');
  });

  it("reads the question's first hit in the first hop, though its site gave a page the pool ranked higher", async () => {
    const query = 'Where does the director of Big Stone Gap live?';
    // The search ranks Wise County's page first, but its title holds none of the question's words: the film's page,
    // second on the same site, leads the pool. A hop before the last reads one page of a site, the question's first
    // hit aside, which may take the site's second.
    const ctx = context({ max_pages_per_domain: 2, max_sources: 6 }, { query, queriesUsed: 7 });
    const found = questionHits(query, [
      [origin, '/wise-county'],
      [origin, '/big-stone-gap'],
      [otherOrigin, '/critics'],
    ]);
    const read = await fetchStep(snapshot(found, []), ctx);
    expect(read.sources.map((s) => new URL(s.url).pathname).slice(0, 2)).toEqual(['/big-stone-gap', '/wise-county']);
  });

  it("spreads the round's sources over its hops, each read after the names the pages before it gave were searched", async () => {
    const query = 'Where does the director of Big Stone Gap live?';
    const ctx = context({ max_pages_per_domain: 10, max_sources: 6 }, { query, queriesUsed: 7 });
    const read = await fetchStep(snapshot(hits(['/big-stone-gap', '/critics', '/wise-county', '/a', '/b']), []), ctx);
    const paths = read.sources.map((s) => new URL(s.url).pathname);
    // Two a hop: the director's page comes in the second, after her name was read on the film's page.
    expect(paths).toHaveLength(6);
    expect(paths.indexOf('/adriana-trigiani')).toBeGreaterThanOrEqual(2);
    const bridges = ctx.notes.filter((e) => e.kind === 'bridge');
    expect(bridges[0]).toMatchObject({ queries: expect.arrayContaining(['Adriana Trigiani']) });
  });

  it("reads a name's page before a hit whose title and snippet say nothing of the question", async () => {
    const query = 'Where does the director of Big Stone Gap live?';
    const ctx = context({ max_pages_per_domain: 10, max_sources: 2 }, { query, queriesUsed: 7 });
    const read = await fetchStep(snapshot(hits(['/big-stone-gap', '/wise-county']), []), ctx);
    expect(read.sources.map((s) => new URL(s.url).pathname)).toEqual(['/big-stone-gap', '/adriana-trigiani']);
  });
});
