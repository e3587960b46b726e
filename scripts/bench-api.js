// npm run bench:api [-- --smoke] — throughput and latency of GET /v1/research/{id}/status against a bare
// Express route returning the same JSON, measured in the same run; then GET /v1/research?limit=100 over
// 100,000 runs. Targets (issue 2): real >= 40 % of bare requests/s, real p99 <= 2x bare p99; list p99 < 50 ms
// (timed with one client, and with 8 concurrent clients beside it); then GET /v1/research?q=<word> over the same runs
// (full-text search of the question and the report's summary): p99 <= 20 ms with one client. Ends with one PASS/MISS
// line per target.
// --smoke: 1 s per load, 8 connections, 1,000 runs.
const crypto = require('node:crypto');
const autocannon = require('autocannon');
const { createBench } = require('./bench/harness');
const {
  REDIS_URL,
  benchRedisPrefix,
  createBenchDatabase,
  createBenchKey,
  serveScript,
  sql,
  stopChild,
} = require('./bench/services');

const bench = createBench('bench:api', {
  figures: [
    'bare_rps',
    'status_rps',
    'status_share',
    'bare_p99_ms',
    'status_p99_ms',
    'list_p99_ms',
    'list_p99_8_ms',
    'search_p99_ms',
  ],
});
const DURATION = Number(process.env.BENCH_DURATION || bench.size(20, 1));
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || bench.size(64, 8));
const WARM_UP = bench.size(3, 1);
const LIST_RUNS = bench.size(100_000, 1_000);
// Each seeded run's question names one of SEARCH_TOPICS topics, and its report's summary another: a topic's word is
// in the question of 1 % of the runs and in the summary of about 1 % more (2,000 matches of 100,000 to rank).
const SEARCH_TOPICS = 100;

function load(url, headers, options = {}) {
  return autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION, ...options });
}

function line(label, r) {
  return `${label.padEnd(28)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   errors ${r.errors + r.non2xx}`;
}

async function main() {
  const database = await createBenchDatabase('bench');
  const { url } = database;
  const env = {
    DATABASE_URL: url,
    REDIS_URL,
    REDIS_PREFIX: benchRedisPrefix(),
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || bench.size('info', 'warn'),
  };
  const children = [];
  try {
    const { key } = await createBenchKey('bench', env);
    const runId = crypto.randomUUID();
    await sql(
      url,
      `insert into research_runs (id, query, language, depth, budget, state) values ($1, 'benchmark query', 'de', 'normal', '{}', 'created')`,
      [runId],
    );

    const api = await serveScript('serve-api.js', env);
    children.push(api.child);
    const headers = { 'x-api-key': key };
    const statusUrl = `http://127.0.0.1:${api.port}/v1/research/${runId}/status`;
    const body = await (await fetch(statusUrl, { headers })).json();
    const bare = await serveScript('serve-bare.js', { BENCH_BODY: JSON.stringify(body) });
    children.push(bare.child);

    console.log(
      `bench:api${bench.smoke ? ' --smoke' : ''} — ${CONNECTIONS} connections, ${DURATION} s each, Node ${process.version}`,
    );
    await load(`http://127.0.0.1:${bare.port}/v1/research/${runId}/status`, {}, { duration: WARM_UP }); // warm-up
    const bareResult = await load(`http://127.0.0.1:${bare.port}/v1/research/${runId}/status`, {});
    await stopChild(bare.child);
    await load(statusUrl, headers, { duration: WARM_UP }); // warm-up
    const realResult = await load(statusUrl, headers);
    console.log(line('bare Express', bareResult));
    console.log(line('GET /v1/research/{id}/status', realResult));
    const ratio = realResult.requests.average / bareResult.requests.average;
    const p99Ratio = realResult.latency.p99 / Math.max(bareResult.latency.p99, 1);
    console.log(
      `ratio: ${(ratio * 100).toFixed(1)} % of bare requests/s (target >= 40 %), p99 ${p99Ratio.toFixed(2)}x bare (target <= 2x)`,
    );

    await sql(
      url,
      `insert into research_runs (id, query, language, depth, budget, state, created_at, source_count, claim_count)
       select gen_random_uuid(), 'query ' || g || ' about topic' || (g % $2::int), 'de', 'normal', '{}', 'completed',
         now() - (g || ' seconds')::interval, g % 60, g % 2000
       from generate_series(1, $1::int) g`,
      [LIST_RUNS, SEARCH_TOPICS],
    );
    await sql(
      url,
      `insert into reports (run_id, report, generated_at)
       select id, jsonb_build_object('summary', 'The sources agree on topic' || (abs(hashtext(id::text)) % $1::int)
         || ' and disagree on details.'), now()
       from research_runs where query like 'query %'`,
      [SEARCH_TOPICS],
    );
    // As autovacuum would after the reports' trigger rewrote every run's search row.
    await sql(url, 'vacuum analyze');
    const listUrl = `http://127.0.0.1:${api.port}/v1/research?limit=100`;
    const listDuration = Math.min(DURATION, 10);
    await load(listUrl, headers, { connections: 8, duration: WARM_UP }); // warm-up
    // The issue times the list with one client; 8 concurrent clients on 2 cores are reported beside it.
    const listSingle = await load(listUrl, headers, { connections: 1, duration: listDuration });
    const listConcurrent = await load(listUrl, headers, { connections: 8, duration: listDuration });
    const runs = LIST_RUNS.toLocaleString('en');
    console.log(line('GET /v1/research?limit=100', listSingle) + `   (${runs} runs; 1 connection)`);
    console.log(line('GET /v1/research?limit=100', listConcurrent) + `   (${runs} runs; 8 connections)`);

    const searchUrl = `http://127.0.0.1:${api.port}/v1/research?q=topic42`;
    const matches = (await (await fetch(searchUrl, { headers })).json()).total;
    await load(searchUrl, headers, { connections: 1, duration: WARM_UP }); // warm-up
    const search = await load(searchUrl, headers, { connections: 1, duration: listDuration });
    console.log(line('GET /v1/research?q=topic42', search) + `   (${runs} runs, ${matches} matches; 1 connection)`);
    bench.figure('bare_rps', Math.round(bareResult.requests.average));
    bench.figure('status_rps', Math.round(realResult.requests.average));
    bench.figure('status_share', Number(ratio.toFixed(3)));
    bench.figure('bare_p99_ms', bareResult.latency.p99);
    bench.figure('status_p99_ms', realResult.latency.p99);
    bench.figure('list_p99_ms', listSingle.latency.p99);
    bench.figure('list_p99_8_ms', listConcurrent.latency.p99);
    bench.figure('search_p99_ms', search.latency.p99);

    console.log('');
    bench.target(ratio >= 0.4, `status requests/s >= 40 % of bare: ${(ratio * 100).toFixed(1)} %`);
    bench.target(
      p99Ratio <= 2,
      `status p99 <= 2x bare p99: ${realResult.latency.p99} ms vs ${bareResult.latency.p99} ms (${p99Ratio.toFixed(2)}x)`,
    );
    bench.target(listSingle.latency.p99 < 50, `list p99 < 50 ms (1 connection): ${listSingle.latency.p99} ms`);
    bench.target(listConcurrent.latency.p99 < 50, `list p99 < 50 ms (8 connections): ${listConcurrent.latency.p99} ms`);
    bench.target(search.latency.p99 <= 20, `search p99 <= 20 ms (1 connection): ${search.latency.p99} ms`);
    const failed = [bareResult, realResult, listSingle, listConcurrent, search].reduce(
      (n, r) => n + r.errors + r.non2xx,
      0,
    );
    bench.target(failed === 0, `every request answered 2xx: ${failed} failed`);
    // A failed request is a fault, not a slow figure: a smoke run fails on it too.
    if (failed > 0) throw new Error(`${failed} requests were not answered 2xx`);
  } finally {
    for (const child of children) await stopChild(child).catch(() => undefined);
    await database.drop();
  }
}

bench.run(main);
