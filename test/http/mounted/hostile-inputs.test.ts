import http from 'node:http';
import request from 'supertest';
import { MAX_ROBOTS_BYTES } from '@research/crawler';
import { fakeResolver, startFakeSite, type FakeSite } from '../../crawler/support';
import { WORST_BLOCK_MARGIN_MS, worstEventLoopBlock, worstHealthLatency } from '../../support/event-loop';
import { listenOnLoopback, type LoopbackServer } from '../../support/loopback';
import { pdfBomb } from '../../support/pdf';
import { insertTestRun } from '../support';
import { buildMountedApp, type MountedTestApp } from './support';

// Issue 10, "No input stalls the service": each hostile input is sent to a real API listening on a port
// while GET /health is asked again and again; /health must keep answering promptly. The 100 ms target
// itself is measured by `npm run bench:hostile` on an otherwise idle API.

const QUERY = 'Wie viele Einwohner hat die Stadt?';
const PLAN = {
  query: QUERY,
  language: 'de',
  query_categories: ['quantitative'],
  sub_questions: [QUERY],
  search_queries: [{ query: 'Einwohner Stadt', dimension: 'evidence' }],
  counter_evidence_queries: [],
  required_fields: ['Einwohner'],
  search_dimensions: ['evidence'],
  time_sensitivity: 'none',
  confidence: 0.6,
};
const SENTENCES = 'Die Stadt hat ca. 3,5 Mio. Einwohner laut Dr. Müller. Im Jahr 2020 wuchs sie um 1,2 Prozent. ';
const PARAGRAPH = `<p>${SENTENCES.repeat(6)}</p>\n`;
const PAGE_BYTES = 5 * 1024 * 1024 - 4096;

const page = (body: string) =>
  `<!DOCTYPE html><html lang="de"><head><title>Die Stadt</title></head><body><main><h1>Die Stadt</h1>${body}</main></body></html>`;

const PAGES: Record<string, string> = {
  // The page cap, all of it ordinary prose: its text is analysed on the API's event loop.
  '/big.html': page(PARAGRAPH.repeat(Math.floor(PAGE_BYTES / Buffer.byteLength(PARAGRAPH)))),
  // An unclosed <script> repeated up to the page cap.
  '/unclosed-script.html': page(PARAGRAPH + '<script>x '.repeat(Math.floor(PAGE_BYTES / 10))),
};
// Every rule for everyone up to the size limit, none of them matching the pages above.
const ROBOTS = Array.from({ length: 40_000 }, (_, i) => `User-agent: *\nDisallow: /section-${i}/*/x$\n`)
  .join('')
  .slice(0, MAX_ROBOTS_BYTES);

let site: FakeSite;
let bomb: Buffer;
let m: MountedTestApp;
let server: LoopbackServer;
let runId: string;

beforeAll(async () => {
  bomb = await pdfBomb(128 * 1024 * 1024);
  site = await startFakeSite((req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS);
    if (req.url === '/bomb.pdf') return void res.writeHead(200, { 'content-type': 'application/pdf' }).end(bomb);
    const html = PAGES[req.url ?? ''];
    if (!html) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
  });
  m = await buildMountedApp('hostileinputs', {
    env: { CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true', CRAWLER_TIMEOUT_MS: '30000' },
    crawlerOptions: {
      resolver: fakeResolver({ 'site.test': ['127.0.0.1'], 'intranet.test': ['169.254.169.254'] }),
    },
  });
  server = await listenOnLoopback(http.createServer(m.app));
  runId = await insertTestRun(m.t.db, { owner: m.t.owner.id, state: 'completed', plan: PLAN, query: QUERY });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await m?.close();
  await site?.close();
});

const post = (path: string, body: object) =>
  request(server.origin).post(path).set('X-API-Key', m.t.owner.key).send(body);
const claims = (body: object) => post(`/research/${runId}/claims`, body);
const onSite = (path: string) => `http://site.test:${site.port}${path}`;

/**
 * Runs `work` while /health is asked again and again: every answer is 200, and the API (in this process) never holds
 * its event loop longer than WORST_BLOCK_MARGIN_MS, counted in the CPU time its main thread spent (worstEventLoopBlock).
 * The health checks' wall-clock latency is not the measure: on CI's two busy cores it passed 300 ms with the loop free.
 */
async function expectHealthy<T>(work: () => Promise<T>): Promise<T> {
  const {
    result: { result, checks },
    worstMs,
  } = await worstEventLoopBlock(() => worstHealthLatency(server.origin, work));
  expect(checks).toBeGreaterThan(0);
  expect(worstMs).toBeLessThan(WORST_BLOCK_MARGIN_MS);
  return result;
}

describe('hostile input on the claims route leaves /health answering', () => {
  it('200 KB of "Dr. " (37.6 s of a blocked event loop before the fix)', async () => {
    const res = await expectHealthy(() => claims({ text: 'Dr. '.repeat(50_000), url: 'https://example.org/dr' }));
    expect(res.status).toBe(200);
    expect(res.body.engine).toBe('extractive');
  });

  it('200,000 characters of ordinary text (the size limit of `text`)', async () => {
    const text = SENTENCES.repeat(3_000).slice(0, 200_000);
    const res = await expectHealthy(() => claims({ text, url: 'https://example.org/ordinary' }));
    expect(res.status).toBe(200);
    expect(res.body.created).toBeGreaterThan(0);
  });

  it('a 5 MB page of prose fetched by URL and analysed in the API', async () => {
    const res = await expectHealthy(() => claims({ url: onSite('/big.html') }));
    expect(res.status).toBe(200);
    expect(res.body.source_created).toBe(true);
  }, 120_000);

  it('a thousand distinct language strings', async () => {
    const source = await claims({ text: SENTENCES, url: 'https://example.org/languages' });
    expect(source.status).toBe(200);
    const statuses = await expectHealthy(async () => {
      const out: number[] = [];
      for (let batch = 0; batch < 50; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            claims({ source_id: source.body.source_id, language: `de-x-${(batch * 20 + i).toString(36)}` }),
          ),
        );
        out.push(...answers.map((a) => a.status));
      }
      return out;
    });
    expect(new Set(statuses)).toEqual(new Set([200]));
  }, 120_000);
});

describe('hostile pages on the crawler routes leave /health answering', () => {
  it('a 5 MB page of unclosed <script> tags', async () => {
    const res = await expectHealthy(() => post('/crawler/fetch', { url: onSite('/unclosed-script.html') }));
    expect(res.status).toBe(200);
    expect(res.body.content).toContain('Die Stadt hat ca. 3,5 Mio. Einwohner');
  });

  it('a PDF whose content stream inflates to 128 MB (twice the limit): refused with the reason', async () => {
    const res = await expectHealthy(() => post('/crawler/fetch', { url: onSite('/bomb.pdf') }));
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/^url: too_large: The PDF's content inflates to more than \d+ bytes\.$/);
  });

  it('a 500 KiB robots.txt of rules for every crawler', async () => {
    const res = await expectHealthy(() => post('/crawler/validate-url', { url: onSite('/section-7/a/x') }));
    expect(res.body).toMatchObject({ allowed: false, reason: 'robots' });
  });
});

describe('crawler routes do not tell internal names from missing ones', () => {
  it('answers fetch, batch and validate-url alike for a name resolving to a refused address and an unknown name', async () => {
    const answersFor = async (host: string) => {
      const url = `http://${host}/page`;
      const [fetched, batch, validated] = await Promise.all([
        post('/crawler/fetch', { url }),
        post('/crawler/fetch/batch', { urls: [url] }),
        post('/crawler/validate-url', { url }),
      ]);
      return JSON.stringify({
        fetched: [fetched.status, fetched.body],
        batch: [batch.status, batch.body],
        validated: [validated.status, validated.body],
      }).replaceAll(host, '<host>');
    };
    const internal = await answersFor('intranet.test');
    expect(internal).toBe(await answersFor('missing.test'));
    expect(JSON.parse(internal).validated[1]).toMatchObject({ allowed: false, reason: 'dns' });
  });
});
