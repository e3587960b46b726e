// npm run bench:api — throughput and latency of GET /v1/research/{id}/status against a bare Express
// route returning the same JSON, measured in the same run; then GET /v1/research?limit=100 over 100,000 runs.
// Targets (issue 2): real >= 40 % of bare requests/s, real p99 <= 2x bare p99; list p99 < 50 ms (timed
// with one client, and with 8 concurrent clients beside it). Ends with one PASS/MISS line per target.
const { fork } = require('node:child_process');
const crypto = require('node:crypto');
const path = require('node:path');
const autocannon = require('autocannon');
const pg = require('pg');

const ADMIN_URL =
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.BENCH_REDIS_URL || process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const DURATION = Number(process.env.BENCH_DURATION || 20);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS || 64);

function dbUrl(name) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

async function sqlOn(url, text, params) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, params);
  } finally {
    await client.end();
  }
}

function serve(script, env) {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(__dirname, 'bench', script), [], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.once('message', (m) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

function stop(child) {
  // Already gone (the bare server is stopped before the real one is measured): no 'exit' will come again.
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.removeAllListeners('exit');
    child.once('exit', resolve);
    child.kill('SIGKILL');
  });
}

function load(url, headers, options = {}) {
  return autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION, ...options });
}

function line(label, r) {
  return `${label.padEnd(28)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   errors ${r.errors + r.non2xx}`;
}

async function main() {
  const name = `rs_bench_${crypto.randomBytes(4).toString('hex')}`;
  await sqlOn(ADMIN_URL, `create database ${name}`);
  const url = dbUrl(name);
  const env = {
    DATABASE_URL: url,
    REDIS_URL,
    REDIS_PREFIX: `rs-bench-${crypto.randomBytes(3).toString('hex')}`,
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL || 'info',
  };
  const children = [];
  try {
    const { runCli } = require('@research/runtime');
    let key;
    await runCli(
      ['keys', 'create', 'bench', '--json'],
      { out: (l) => (key = JSON.parse(l).key), err: console.error },
      { ...process.env, ...env },
    );
    const runId = crypto.randomUUID();
    await sqlOn(
      url,
      `insert into research_runs (id, query, language, depth, budget, state) values ($1, 'benchmark query', 'de', 'normal', '{}', 'created')`,
      [runId],
    );

    const api = await serve('serve-api.js', env);
    children.push(api.child);
    const headers = { 'x-api-key': key };
    const statusUrl = `http://127.0.0.1:${api.port}/v1/research/${runId}/status`;
    const body = await (await fetch(statusUrl, { headers })).json();
    const bare = await serve('serve-bare.js', { BENCH_BODY: JSON.stringify(body) });
    children.push(bare.child);

    console.log(`bench:api — ${CONNECTIONS} connections, ${DURATION} s each, Node ${process.version}`);
    await load(`http://127.0.0.1:${bare.port}/v1/research/${runId}/status`, {}, { duration: 3 }); // warm-up
    const bareResult = await load(`http://127.0.0.1:${bare.port}/v1/research/${runId}/status`, {});
    await stop(bare.child);
    await load(statusUrl, headers, { duration: 3 }); // warm-up
    const realResult = await load(statusUrl, headers);
    console.log(line('bare Express', bareResult));
    console.log(line('GET /v1/research/{id}/status', realResult));
    const ratio = realResult.requests.average / bareResult.requests.average;
    const p99Ratio = realResult.latency.p99 / Math.max(bareResult.latency.p99, 1);
    console.log(
      `ratio: ${(ratio * 100).toFixed(1)} % of bare requests/s (target >= 40 %), p99 ${p99Ratio.toFixed(2)}x bare (target <= 2x)`,
    );

    await sqlOn(
      url,
      `insert into research_runs (id, query, language, depth, budget, state, created_at, source_count, claim_count)
       select gen_random_uuid(), 'query ' || g, 'de', 'normal', '{}', 'completed', now() - (g || ' seconds')::interval, g % 60, g % 2000
       from generate_series(1, 100000) g`,
    );
    await sqlOn(url, 'analyze');
    const listUrl = `http://127.0.0.1:${api.port}/v1/research?limit=100`;
    const listDuration = Math.min(DURATION, 10);
    await load(listUrl, headers, { connections: 8, duration: 2 }); // warm-up
    // The issue times the list with one client; 8 concurrent clients on 2 cores are reported beside it.
    const listSingle = await load(listUrl, headers, { connections: 1, duration: listDuration });
    const listConcurrent = await load(listUrl, headers, { connections: 8, duration: listDuration });
    console.log(line('GET /v1/research?limit=100', listSingle) + '   (100,000 runs; 1 connection)');
    console.log(line('GET /v1/research?limit=100', listConcurrent) + '   (100,000 runs; 8 connections)');

    const verdict = (ok) => (ok ? 'PASS' : 'MISS');
    console.log('');
    console.log(`${verdict(ratio >= 0.4)}  status requests/s >= 40 % of bare: ${(ratio * 100).toFixed(1)} %`);
    console.log(
      `${verdict(p99Ratio <= 2)}  status p99 <= 2x bare p99: ${realResult.latency.p99} ms vs ${bareResult.latency.p99} ms (${p99Ratio.toFixed(2)}x)`,
    );
    console.log(
      `${verdict(listSingle.latency.p99 < 50)}  list p99 < 50 ms (1 connection): ${listSingle.latency.p99} ms`,
    );
    console.log(
      `${verdict(listConcurrent.latency.p99 < 50)}  list p99 < 50 ms (8 connections): ${listConcurrent.latency.p99} ms`,
    );
    const failed = [bareResult, realResult, listSingle, listConcurrent].reduce((n, r) => n + r.errors + r.non2xx, 0);
    console.log(`${verdict(failed === 0)}  every request answered 2xx: ${failed} failed`);
  } finally {
    for (const child of children) await stop(child).catch(() => undefined);
    await sqlOn(ADMIN_URL, `drop database if exists ${name} with (force)`);
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
