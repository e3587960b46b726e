import fs from 'node:fs';
import { EventSource } from 'eventsource';
import { createApiKey } from './fleet-support';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { freePort, killAllProcesses, spawnNodeProcess, waitForLogLine, type NodeProcess } from '../support/processes';
import { clearRedisPrefix, TEST_REDIS_URL, uniqueRedisPrefix } from '../support/redis';
import { openSse, type SseEvent } from '../support/sse';
import { waitFor } from '../support/wait';
import { workerEnv } from '../worker/worker-fixtures';
import { API_MAIN, client } from './support';

const QUESTION = { query: 'photosynthesis light energy plants', depth: 'quick', language: 'en' };

// Live progress and stopping, with the compose topology: two API processes and a worker sharing Postgres and
// Redis. A stream is read from the API process that did not create the run.
describe('run events and cancel across processes', () => {
  let t: TestDatabase;
  let wiki: FakeWiki;
  let prefix: string;
  let bases: string[];
  let worker: NodeProcess;
  let key: string;
  let call: ReturnType<typeof client>[];

  beforeAll(async () => {
    t = await createTestDatabase('events');
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS, pageLatencyMs: 300 });
    prefix = uniqueRedisPrefix('events');
    const env = workerEnv({ databaseUrl: t.url, redisUrl: TEST_REDIS_URL, prefix, wikiApiUrl: wiki.apiUrl });
    const ports = [await freePort(), await freePort()];
    const apis = ports.map((port, i) =>
      spawnNodeProcess(`api${i + 1}`, API_MAIN, {
        ...env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: `/tmp/${prefix}-${i}`,
        EVENTS_KEEPALIVE_MS: '200',
      }),
    );
    worker = spawnNodeProcess('w1', require.resolve('../../apps/worker/dist/main.js'), env);
    await Promise.all([
      ...apis.map((a) => waitForLogLine(a, 'API listening', 30_000)),
      waitForLogLine(worker, 'worker started', 30_000),
    ]);
    key = await createApiKey(t.db, 'events-user');
    bases = ports.map((port) => `http://127.0.0.1:${port}`);
    call = bases.map((base) => client(base, key));
  });
  afterAll(async () => {
    await killAllProcesses();
    await wiki.close();
    await clearRedisPrefix(prefix);
    for (const i of [0, 1]) fs.rmSync(`/tmp/${prefix}-${i}`, { recursive: true, force: true });
    await t.drop();
  });

  const stream = (base: string, id: string, headers: Record<string, string> = {}, query = '') =>
    openSse(`${base}/v1/research/${id}/events${query}`, { 'X-API-Key': key, ...headers });

  const types = (events: SseEvent[]) => events.map((e) => e.event);

  it('streams a run from its creation to its end on another API process, numbered and resumable', async () => {
    const created = await call[0]!('POST', '/v1/research', QUESTION);
    expect(created.status).toBe(200);
    const id = created.body.research_id as string;
    const live = stream(bases[1]!, id);
    const response = await live.response;
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/event-stream/);
    await live.closed; // the server ends the stream after `end`

    const events = live.events;
    expect(events.map((e) => e.data.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.map((e) => e.id)).toEqual(events.map((e) => String(e.data.seq)));
    expect(events[0]).toMatchObject({ event: 'state', data: { type: 'state', state: 'created' } });
    for (const type of ['plan', 'query', 'source', 'claims', 'report']) expect(types(events)).toContain(type);
    expect(events.at(-2)).toMatchObject({ event: 'state', data: { state: 'completed' } });
    expect(events.at(-1)).toMatchObject({ event: 'end', data: { type: 'end', state: 'completed' } });
    // The report comes before the run's end, and the states move as CONTRACT 4 names them.
    expect(types(events).indexOf('report')).toBeLessThan(types(events).lastIndexOf('state'));
    const states = events.filter((e) => e.event === 'state').map((e) => e.data.state);
    expect(states.slice(0, 3)).toEqual(['created', 'planning', 'searching']);
    expect(Date.parse(events[0]!.data.at)).not.toBeNaN();
    const fetched = events.filter((e) => e.event === 'source' && e.data.outcome === 'fetched');
    const sources = await call[0]!('GET', `/v1/research/${id}/sources`);
    expect(fetched.map((e) => e.data.source_id).sort()).toEqual(sources.body.sources.map((s: any) => s.id).sort());
    const queries = events.filter((e) => e.event === 'query').map((e) => e.data.query);
    expect(queries).toContain(QUESTION.query);
    // The 300 ms page latency leaves the stream idle longer than the keep-alive interval.
    expect(live.comments).toContain('keep-alive');

    // A client that reconnects with Last-Event-ID (or ?after=) gets exactly what it missed.
    const resumed = stream(bases[0]!, id, { 'Last-Event-ID': '3' });
    await resumed.closed;
    expect(resumed.events.map((e) => e.data)).toEqual(events.slice(3).map((e) => e.data));
    const after = stream(bases[1]!, id, {}, `?after=${events.length - 1}`);
    await after.closed;
    expect(types(after.events)).toEqual(['end']);

    // The same history as JSON pages.
    const pages: any[] = [];
    for (let cursor = 0; ;) {
      const page = await call[1]!('GET', `/v1/research/${id}/events?after=${cursor}&limit=4`, undefined, {
        Accept: 'application/json',
      });
      expect(page.status).toBe(200);
      if (page.body.items.length === 0) {
        expect(page.body.next_after).toBe(cursor);
        break;
      }
      pages.push(...page.body.items);
      cursor = page.body.next_after;
    }
    expect(pages).toEqual(events.map((e) => e.data));
  }, 60_000);

  it('tells a standard EventSource that reconnects after the end to stop (204), so it is not held open', async () => {
    const created = await call[0]!('POST', '/v1/research', QUESTION);
    const id = created.body.research_id as string;
    const first = stream(bases[0]!, id);
    await first.closed;
    const end = first.events.at(-1)!;
    expect(end.event).toBe('end');
    // The `eventsource` package, as a client would use it: it reconnects after the server closes the stream
    // (`retry: 2000`), sending the last id it saw.
    const received: string[] = [];
    const source = new EventSource(`${bases[1]}/v1/research/${id}/events`, {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, 'X-API-Key': key } }),
    });
    source.addEventListener('end', (e) => received.push(e.lastEventId));
    try {
      await waitFor(
        'the EventSource to stop reconnecting',
        async () => source.readyState === EventSource.CLOSED,
        20_000,
      );
    } finally {
      source.close();
    }
    expect(received).toEqual([end.id]);
    const late = stream(bases[0]!, id, { 'Last-Event-ID': end.id! });
    expect((await late.response).statusCode).toBe(204);
    await late.closed;
    expect(late.events).toEqual([]);
    // Before the end, the same request streams (one event short of it: the end still comes).
    const before = stream(bases[0]!, id, { 'Last-Event-ID': String(Number(end.id) - 1) });
    await before.closed;
    expect(types(before.events)).toEqual(['end']);
  }, 60_000);

  it('answers bad resumes with 422, unknown runs with 404 and a missing key with 401', async () => {
    const created = await call[0]!('POST', '/v1/research', QUESTION);
    const id = created.body.research_id as string;
    const bad = await call[0]!('GET', `/v1/research/${id}/events?after=-1`);
    expect(bad.status).toBe(422);
    expect(bad.body.detail).toMatch(/^after: /);
    const badLimit = await call[0]!('GET', `/v1/research/${id}/events?limit=0`);
    expect(badLimit.body.detail).toMatch(/^limit: /);
    const badHeader = await call[0]!('GET', `/v1/research/${id}/events`, undefined, { 'Last-Event-ID': 'x' });
    expect(badHeader.status).toBe(422);
    expect(badHeader.body.detail).toMatch(/^Last-Event-ID: /);
    const unknown = '00000000-0000-4000-8000-000000000000';
    const missing = await call[0]!('GET', `/v1/research/${unknown}/events`, undefined, { Accept: 'text/event-stream' });
    expect(missing).toMatchObject({ status: 404, body: { detail: `Research run ${unknown} not found` } });
    const anonymous = await client(bases[0]!)('GET', `/v1/research/${id}/events`);
    expect(anonymous.status).toBe(401);
    await waitFor(
      'the run to end',
      async () => (await call[0]!('GET', `/v1/research/${id}`)).body.is_running === false,
      45_000,
    );
  }, 60_000);

  it('stops a run in the middle of a slow fetch within 5 s, keeping a report that says it was stopped', async () => {
    wiki.pageLatencyMs = 30_000;
    try {
      const created = await call[0]!('POST', '/v1/research', QUESTION);
      const id = created.body.research_id as string;
      const live = stream(bases[1]!, id);
      await waitFor('the run to fetch', async () => live.events.some((e) => e.data.state === 'fetching'), 30_000, 50);
      // The fetch is under way: the fake wiki holds its pages for 30 s.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const started = Date.now();
      const cancelled = await call[1]!('POST', `/v1/research/${id}/cancel`);
      expect(cancelled).toMatchObject({ status: 202, body: { research_id: id, status: 'cancelling' } });
      await waitFor(
        'the run to be cancelled',
        async () => (await call[0]!('GET', `/v1/research/${id}`)).body.state === 'cancelled',
        5_000,
        50,
      );
      // The worker gave up the step it was in (its fetches were aborted), well before the pages would answer.
      await waitForLogLine(worker, 'research run was cancelled; its step output is discarded', 5_000);
      expect(Date.now() - started).toBeLessThan(5_000);

      const status = await call[0]!('GET', `/v1/research/${id}`);
      expect(status.body).toMatchObject({ state: 'cancelled', is_running: false, is_completed: false });
      expect(status.body.search_count).toBeGreaterThan(0); // what it found before the stop is kept
      const report = await call[0]!('GET', `/v1/research/${id}/report`);
      expect(report.body.generated_at).not.toBe('');
      expect(report.body.uncertainties.join(' ')).toMatch(/stopped before it finished \(at Reading sources, round 1\)/);
      await live.closed;
      expect(types(live.events).slice(-4)).toEqual(['stopped', 'report', 'state', 'end']);
      expect(live.events.at(-1)!.data.state).toBe('cancelled');

      const again = await call[0]!('POST', `/v1/research/${id}/cancel`);
      expect(again.status).toBe(409);
      expect(again.body.detail).toMatch(/has already ended \(state cancelled\)/);
    } finally {
      wiki.pageLatencyMs = 300;
    }
  }, 60_000);

  it('ends its open streams when an API process shuts down, so it stops at once', async () => {
    const port = await freePort();
    const api = spawnNodeProcess('api3', API_MAIN, {
      ...workerEnv({ databaseUrl: t.url, redisUrl: TEST_REDIS_URL, prefix, wikiApiUrl: wiki.apiUrl }),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: `/tmp/${prefix}-3`,
    });
    await waitForLogLine(api, 'API listening', 30_000);
    wiki.pageLatencyMs = 30_000;
    try {
      const created = await call[0]!('POST', '/v1/research', QUESTION);
      const id = created.body.research_id as string;
      const live = stream(`http://127.0.0.1:${port}`, id);
      await waitFor('the stream to start', async () => live.events.length > 0, 10_000, 50);
      const started = Date.now();
      api.child.kill('SIGTERM');
      await live.closed;
      expect(await api.exited).toEqual({ code: 0, signal: null });
      expect(Date.now() - started).toBeLessThan(5_000);
      // The client resumes on another process and misses nothing.
      const resumed = stream(bases[0]!, id, { 'Last-Event-ID': String(live.events.at(-1)!.data.seq) });
      await call[0]!('POST', `/v1/research/${id}/cancel`);
      await resumed.closed;
      expect(resumed.events.map((e) => e.data.seq)).toEqual(
        resumed.events.map((_, i) => live.events.at(-1)!.data.seq + i + 1),
      );
      expect(resumed.events.at(-1)!.data).toMatchObject({ type: 'end', state: 'cancelled' });
    } finally {
      wiki.pageLatencyMs = 300;
      fs.rmSync(`/tmp/${prefix}-3`, { recursive: true, force: true });
    }
  }, 60_000);

  it('lets only the owner or an administrator stop a run', async () => {
    const created = await call[0]!('POST', '/v1/research', QUESTION);
    const id = created.body.research_id as string;
    const other = client(bases[0]!, await createApiKey(t.db, 'someone-else'));
    const refused = await other('POST', `/v1/research/${id}/cancel`);
    expect(refused).toMatchObject({ status: 403, body: { detail: 'You may only manage your own research runs.' } });
    const unknown = await call[0]!('POST', '/v1/research/00000000-0000-4000-8000-000000000000/cancel');
    expect(unknown.status).toBe(404);
    expect((await call[0]!('GET', `/v1/research/${id}`)).body.state).not.toBe('cancelled');
    await waitFor(
      'the run to end',
      async () => (await call[0]!('GET', `/v1/research/${id}`)).body.is_running === false,
      45_000,
    );
  }, 60_000);
});
