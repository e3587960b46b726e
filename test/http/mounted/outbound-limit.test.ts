import http from 'node:http';
import request from 'supertest';
import { OUTBOUND_PER_CALLER } from '@research/runs';
import { startFakeSite, type FakeSite } from '../../crawler/support';
import { listenOnLoopback, type LoopbackServer } from '../../support/loopback';
import { waitFor } from '../../support/wait';
import { buildMountedApp, type MountedTestApp } from './support';

const TOO_MANY =
  'Too many crawler, vision or audio requests in flight: at most 4 per caller at once. Retry when one has finished.';

/**
 * Sends the headers of a large upload and only its first `sent` bytes, then waits for an answer: a
 * server that waited for the body would never answer. Resolves with the status and body.
 */
function partialUpload(
  origin: string,
  path: string,
  headers: Record<string, string>,
  declared: number,
  first: Buffer,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin}${path}`, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(declared) },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no answer to ${path} within 5 s while its body was incomplete`));
    }, 5000);
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) });
      });
    });
    req.flushHeaders();
    req.write(first);
  });
}

const PAGE = `<!DOCTYPE html><html lang="en"><head><title>Slow page</title></head><body><main><h1>Slow page</h1>
<p>${'A survey in 2022 found that 40 percent of employees worked from home at least one day a week. '.repeat(6)}</p></main></body></html>`;

describe('per-caller limit of outbound work on the mounted routes', () => {
  // Pages under /slow/ are held until release(): the requests for them stay in flight meanwhile.
  const held: http.ServerResponse[] = [];
  let releasing = false;
  const release = () => {
    releasing = true;
    for (const res of held.splice(0)) res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  };
  const handler = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('');
    if (req.url?.startsWith('/slow/') && !releasing) return void held.push(res);
    res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  };
  // The crawler runs at most 2 requests per host: two slow hosts hold the caller's 4 requests at once.
  let slowA: FakeSite;
  let slowB: FakeSite;
  let slowC: FakeSite;
  let fast: FakeSite;
  let m: MountedTestApp;
  let api: LoopbackServer;
  beforeAll(async () => {
    [slowA, slowB, slowC, fast] = await Promise.all([
      startFakeSite(handler, '127.0.0.51'),
      startFakeSite(handler, '127.0.0.52'),
      startFakeSite(handler, '127.0.0.54'),
      startFakeSite(handler, '127.0.0.53'),
    ]);
    m = await buildMountedApp('mountedlimit', {
      env: {
        CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
        CRAWLER_TIMEOUT_MS: '20000',
        // Configured, never reached: every media request below is refused before it is read.
        VISION_BASE_URL: 'http://127.0.0.1:9/v1',
        VISION_MODEL: 'unreached-vision',
        AUDIO_BASE_URL: 'http://127.0.0.1:9/v1',
        AUDIO_MODEL: 'unreached-audio',
      },
    });
    api = await listenOnLoopback(http.createServer(m.app));
  });
  beforeEach(() => {
    releasing = false;
  });
  afterAll(async () => {
    release();
    await api.close();
    await m.close();
    await Promise.all([slowA, slowB, slowC, fast].map((s) => s.close()));
  });
  const allHits = () => [slowA, slowB, slowC, fast].reduce((n, site) => n + site.totalHits(), 0);

  const fetchAs = (key: string, url: string) =>
    request(m.app).post('/crawler/fetch').set('X-API-Key', key).send({ url });

  it('answers 429 to a caller over its share while another caller is served, and frees the share afterwards', async () => {
    expect(OUTBOUND_PER_CALLER).toBe(4);
    const owner = m.t.owner.key;
    const urls = [1, 2].flatMap((i) => [`${slowA.origin}/slow/${i}`, `${slowB.origin}/slow/${i}`]);
    // Four requests of one caller, held by the slow sites (`.then` sends them now).
    const pending = urls.map((url) => fetchAs(owner, url).then((res) => res));
    await waitFor('four held requests', async () => held.length === 4, 10_000, 20);

    // A fifth request of the same caller, of any outbound kind, is refused at once and fetches nothing.
    const hitsBefore = slowA.totalHits() + slowB.totalHits() + fast.totalHits();
    const refused = await fetchAs(owner, `${fast.origin}/page`).expect(429);
    expect(refused.body).toEqual({ detail: TOO_MANY });
    await request(m.app)
      .post('/crawler/validate-url')
      .set('X-API-Key', owner)
      .send({ url: `${fast.origin}/other` })
      .expect(429);
    await request(m.app)
      .post('/crawler/fetch/batch')
      .set('X-API-Key', owner)
      .send({ urls: [`${fast.origin}/batch`] })
      .expect(429);
    expect(slowA.totalHits() + slowB.totalHits() + fast.totalHits()).toBe(hitsBefore);

    // Another caller is not affected (nor an administrator: the share is per caller, not per role).
    const other = await fetchAs(m.t.other.key, `${fast.origin}/page`).expect(200);
    expect(other.body.title).toBe('Slow page');
    await request(m.app)
      .post('/crawler/validate-url')
      .set('X-API-Key', m.t.admin.key)
      .send({ url: `${fast.origin}/other` })
      .expect(200);

    // Released, the four complete, and the caller's share is free again.
    release();
    const done = await Promise.all(pending);
    expect(done.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    await fetchAs(owner, `${fast.origin}/again`).expect(200);
  });

  it('refuses a vision or audio upload of a caller at its limit before reading the body', async () => {
    const owner = m.t.owner.key;
    const urls = [1, 2].flatMap((i) => [`${slowA.origin}/slow/u${i}`, `${slowB.origin}/slow/u${i}`]);
    const pending = urls.map((url) => fetchAs(owner, url).then((res) => res));
    await waitFor('four held requests', async () => held.length === 4, 10_000, 20);

    // 20 MiB declared, 1 KiB sent: the 429 comes while the rest of the body has not been sent.
    const audio = await partialUpload(
      api.origin,
      '/audio/transcribe',
      { 'x-api-key': owner, 'content-type': 'multipart/form-data; boundary=BOUNDARY' },
      20 * 1024 * 1024,
      Buffer.from(
        '--BOUNDARY\r\nContent-Disposition: form-data; name="file"; filename="talk.wav"\r\n' +
          'Content-Type: audio/wav\r\n\r\n' +
          'RIFF'.padEnd(1024, '\0'),
      ),
    );
    expect(audio).toMatchObject({ status: 429, body: { detail: TOO_MANY } });
    const vision = await partialUpload(
      api.origin,
      '/vision/analyze',
      { 'x-api-key': owner, 'content-type': 'application/json' },
      6 * 1024 * 1024,
      Buffer.from(`{"image_base64": "${'A'.repeat(1000)}`),
    );
    expect(vision).toMatchObject({ status: 429, body: { detail: TOO_MANY } });

    // Another caller's upload is read (and answered on its merits: here a 422 for its empty file field).
    await request(m.app)
      .post('/audio/transcribe')
      .set('X-API-Key', m.t.other.key)
      .attach('file', Buffer.alloc(0), 'empty.wav')
      .expect(422, { detail: 'file: must not be empty' });

    release();
    expect((await Promise.all(pending)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
  });

  it('counts each fetch of a batch against the caller’s limit, running only as many at once as are free', async () => {
    const owner = m.t.owner.key;
    // A batch of four holds all four of the caller's slots: nothing else of the caller runs meanwhile.
    const full = request(m.app)
      .post('/crawler/fetch/batch')
      .set('X-API-Key', owner)
      .send({ urls: [1, 2].flatMap((i) => [`${slowA.origin}/slow/f${i}`, `${slowB.origin}/slow/f${i}`]) })
      .then((res) => res);
    await waitFor('the batch’s four fetches', async () => held.length === 4, 10_000, 20);
    const hits = allHits();
    await fetchAs(owner, `${fast.origin}/during-batch`).expect(429, { detail: TOO_MANY });
    expect(allHits()).toBe(hits);
    release();
    const done = await full;
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({ total: 4, succeeded: 4, failed: 0 });

    // With two requests in flight, a batch of three runs two fetches at once, and the third after them.
    releasing = false;
    const singles = [`${slowA.origin}/slow/s1`, `${slowB.origin}/slow/s2`].map((url) =>
      fetchAs(owner, url).then((res) => res),
    );
    await waitFor('two held requests', async () => held.length === 2, 10_000, 20);
    const partial = request(m.app)
      .post('/crawler/fetch/batch')
      .set('X-API-Key', owner)
      .send({ urls: [`${slowA.origin}/slow/p1`, `${slowB.origin}/slow/p2`, `${slowC.origin}/slow/p3`] })
      .then((res) => res);
    await waitFor('the batch’s first two fetches', async () => held.length === 4, 10_000, 20);
    await new Promise((r) => setTimeout(r, 300));
    expect(held.length).toBe(4);
    expect(slowC.hitsOf('/slow/p3')).toBe(0);
    await fetchAs(owner, `${fast.origin}/during-partial`).expect(429, { detail: TOO_MANY });

    release();
    const batch = await partial;
    expect(batch.body).toMatchObject({ total: 3, succeeded: 3, failed: 0 });
    expect((await Promise.all(singles)).map((r) => r.status)).toEqual([200, 200]);
    // Everything given back: the caller has its four slots again.
    await request(m.app)
      .post('/crawler/fetch/batch')
      .set('X-API-Key', owner)
      .send({ urls: [1, 2, 3, 4].map((i) => `${fast.origin}/after/${i}`) })
      .expect(200);
  });
});
