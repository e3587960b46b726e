import type http from 'node:http';
import request from 'supertest';
import { OUTBOUND_PER_CALLER } from '@research/http';
import { startFakeSite, type FakeSite } from '../../crawler/support';
import { waitFor } from '../../support/wait';
import { buildMountedApp, type MountedTestApp } from './support';

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
  let fast: FakeSite;
  let m: MountedTestApp;
  beforeAll(async () => {
    [slowA, slowB, fast] = await Promise.all([
      startFakeSite(handler, '127.0.0.51'),
      startFakeSite(handler, '127.0.0.52'),
      startFakeSite(handler, '127.0.0.53'),
    ]);
    m = await buildMountedApp('mountedlimit', {
      env: { CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true', CRAWLER_TIMEOUT_MS: '20000' },
    });
  });
  afterAll(async () => {
    release();
    await m.close();
    await Promise.all([slowA, slowB, fast].map((s) => s.close()));
  });

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
    expect(refused.body).toEqual({
      detail:
        'Too many crawler, vision or audio requests in flight: at most 4 per caller at once. Retry when one has finished.',
    });
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
});
