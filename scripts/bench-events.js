// npm run bench:events [-- --smoke] — live progress: STREAMS open Server-Sent Event streams
// (GET /v1/research/{id}/events) on one real API process while runs progress. "Progress" is what a worker's
// step commit does: the product's appendRunEvents in a transaction, WRITES_PER_SECOND commits spread over
// RUNS runs; each event's delivery latency is measured from the moment its COMMIT returned to the moment a
// stream client parsed it (one clock: both in this process). The baseline of the same run: the same clients
// polling the JSON form of the endpoint (`?after=`) once a second, the way a client without streams would.
// Also the API's memory per open stream (heap + external after a full GC, and RSS). Target (issue 13):
// p99 < 250 ms from the database write. --smoke: 20 streams for 2 s.
'use strict';
const http = require('node:http');
const { createBench } = require('./bench/harness');
const {
  REDIS_URL,
  benchRedisPrefix,
  createBenchDatabase,
  createBenchKey,
  serveScript,
  stopChild,
} = require('./bench/services');

const bench = createBench('bench:events', {
  figures: [
    'streams',
    'events_delivered',
    'sse_p50_ms',
    'sse_p99_ms',
    'poll_p50_ms',
    'poll_p99_ms',
    'p99_ratio_to_poll',
    'heap_per_stream_kb',
    'rss_per_stream_kb',
  ],
});
const STREAMS = bench.size(200, 20);
const RUNS = bench.size(20, 4);
const SECONDS = bench.size(15, 2);
const WRITES_PER_SECOND = 40;
const POLL_INTERVAL_MS = 1000;
const TARGET_P99_MS = 250;

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function ask(child, message) {
  return new Promise((resolve) => {
    const onMessage = (m) => {
      if (!m || !m[message]) return;
      child.off('message', onMessage);
      resolve(m[message]);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/** One SSE client: calls onEvent(runId, seq) for every event it parses; resolves once the headers came. */
function openStream(origin, key, runId, onEvent) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${origin}/v1/research/${runId}/events`,
      { headers: { 'X-API-Key': key, Accept: 'text/event-stream' }, agent: false },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`stream answered ${res.statusCode}`));
        let buffer = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          buffer += chunk;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const id = /^id: (\d+)$/m.exec(frame);
            if (id) onEvent(runId, Number(id[1]));
          }
        });
        resolve(req);
      },
    );
    req.on('error', reject);
  });
}

/** Writes events as a worker's commits do, spread over the runs; records when each COMMIT returned. */
async function progress(db, runIds, committedAt) {
  const { appendRunEvents } = require('@research/database');
  const total = SECONDS * WRITES_PER_SECOND;
  const started = performance.now();
  for (let i = 0; i < total; i++) {
    const wait = started + (i * 1000) / WRITES_PER_SECOND - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const runId = runIds[i % runIds.length];
    const seq = await db.transaction().execute(async (trx) => {
      await appendRunEvents(trx, runId, [
        { type: 'source', data: { round: 1, url: `https://example.org/${i}`, outcome: 'fetched' } },
      ]);
      const row = await trx
        .selectFrom('research_runs')
        .select('event_seq')
        .where('id', '=', runId)
        .executeTakeFirstOrThrow();
      return row.event_seq;
    });
    committedAt.set(`${runId}:${seq}`, performance.now());
  }
}

/** Latencies (ms) of the events received, from their commit. */
function latencies(received, committedAt) {
  const out = [];
  for (const [event, at] of received) {
    const committed = committedAt.get(event);
    if (committed !== undefined) out.push(at - committed);
  }
  return out.sort((a, b) => a - b);
}

async function measureStreams(origin, key, runIds) {
  const committedAt = new Map();
  const received = [];
  const onEvent = (runId, seq) => received.push([`${runId}:${seq}`, performance.now()]);
  const requests = [];
  for (let i = 0; i < STREAMS; i++) requests.push(await openStream(origin, key, runIds[i % runIds.length], onEvent));
  return { requests, committedAt, received };
}

async function pollClients(origin, key, runIds, db) {
  const committedAt = new Map();
  const received = [];
  const cursors = Array.from({ length: STREAMS }, () => 0);
  let running = true;
  const headers = { 'X-API-Key': key, Accept: 'application/json' };
  const clients = cursors.map(async (_, i) => {
    const runId = runIds[i % runIds.length];
    // Spread the clients over the interval, as independent clients are.
    await new Promise((resolve) => setTimeout(resolve, (i * POLL_INTERVAL_MS) / STREAMS));
    while (running) {
      const r = await fetch(`${origin}/v1/research/${runId}/events?after=${cursors[i]}&limit=1000`, { headers });
      const page = await r.json();
      const now = performance.now();
      for (const item of page.items) received.push([`${runId}:${item.seq}`, now]);
      cursors[i] = page.next_after;
      await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS));
    }
  });
  // Start from what is stored already.
  await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS * 1.5));
  received.length = 0;
  await progress(db, runIds, committedAt);
  await new Promise((resolve) => setTimeout(resolve, POLL_INTERVAL_MS * 1.5));
  running = false;
  await Promise.all(clients);
  return latencies(received, committedAt);
}

async function main() {
  const database = await createBenchDatabase('events');
  const env = { DATABASE_URL: database.url, REDIS_URL, REDIS_PREFIX: benchRedisPrefix(), LOG_LEVEL: 'warn' };
  let api;
  let handle;
  try {
    const { key } = await createBenchKey('bench', env);
    api = await serveScript('serve-api.js', env);
    const { connectPostgres } = require('@research/database');
    handle = connectPostgres(database.url, { max: 4 });
    const db = handle.db;
    const runIds = [];
    for (let i = 0; i < RUNS; i++) {
      const id = require('node:crypto').randomUUID();
      await db
        .insertInto('research_runs')
        .values({ id, query: `benchmark run ${i}`, language: 'en', depth: 'quick', budget: '{}', state: 'searching' })
        .execute();
      runIds.push(id);
    }
    console.log(
      `bench:events${bench.smoke ? ' --smoke' : ''} — ${STREAMS} SSE streams over ${RUNS} runs on one API process, ${WRITES_PER_SECOND} commits/s for ${SECONDS} s, Node ${process.version}`,
    );

    const before = await ask(api.child, 'memory');
    const streams = await measureStreams(api.origin, key, runIds);
    // Let every stream replay its run's history (one `state` event each) before writing.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const open = await ask(api.child, 'memory');
    streams.received.length = 0;
    await progress(db, runIds, streams.committedAt);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const sse = latencies(streams.received, streams.committedAt);
    for (const req of streams.requests) req.destroy();
    const expected = (STREAMS * SECONDS * WRITES_PER_SECOND) / RUNS;
    console.log(
      `sse   delivered ${sse.length} of ${expected} events: p50 ${percentile(sse, 50).toFixed(1)} ms, p99 ${percentile(sse, 99).toFixed(1)} ms`,
    );

    await new Promise((resolve) => setTimeout(resolve, 500));
    const poll = await pollClients(api.origin, key, runIds, db);
    console.log(
      `poll  delivered ${poll.length} events (JSON every ${POLL_INTERVAL_MS} ms): p50 ${percentile(poll, 50).toFixed(1)} ms, p99 ${percentile(poll, 99).toFixed(1)} ms`,
    );

    const heapPerStream = (open.heapUsed + open.external - before.heapUsed - before.external) / STREAMS / 1024;
    const rssPerStream = (open.rss - before.rss) / STREAMS / 1024;
    console.log(
      `memory per open stream: heap+external ${heapPerStream.toFixed(1)} KiB, RSS ${rssPerStream.toFixed(1)} KiB`,
    );

    bench.figure('streams', STREAMS);
    bench.figure('events_delivered', sse.length);
    bench.figure('sse_p50_ms', Number(percentile(sse, 50).toFixed(1)));
    bench.figure('sse_p99_ms', Number(percentile(sse, 99).toFixed(1)));
    bench.figure('poll_p50_ms', Number(percentile(poll, 50).toFixed(1)));
    bench.figure('poll_p99_ms', Number(percentile(poll, 99).toFixed(1)));
    bench.figure('p99_ratio_to_poll', Number((percentile(sse, 99) / percentile(poll, 99)).toFixed(3)));
    bench.figure('heap_per_stream_kb', Number(heapPerStream.toFixed(1)));
    bench.figure('rss_per_stream_kb', Number(rssPerStream.toFixed(1)));
    bench.target(sse.length === expected, `every event reached every stream (${sse.length} of ${expected})`);
    bench.target(
      percentile(sse, 99) < TARGET_P99_MS,
      `SSE delivery p99 ${percentile(sse, 99).toFixed(1)} ms < ${TARGET_P99_MS} ms from the database write`,
    );
  } finally {
    await handle?.close();
    if (api) await stopChild(api.child);
    await database.drop();
  }
}

bench.run(main);
