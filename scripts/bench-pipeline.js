// npm run bench:pipeline — wall time of one `normal` research run with the LLM engine against the lower
// bound its LLM calls set. The fake OpenAI-compatible server answers every request after a fixed delay
// (BENCH_LLM_DELAY_MS, default 400) and the loopback web answers after a fixed latency (BENCH_WEB_LATENCY_MS,
// default 20). Bound: the LLM calls fall into phases that cannot overlap (plan, claims of round 1, claims of
// round 2, report: each needs the one before); a phase of n calls takes at least ceil(n / LLM_MAX_CONCURRENCY)
// delays. Target (issue 4): wall time within 1.3x of that bound. Runs from the TypeScript sources (no build).
const crypto = require('node:crypto');
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const ts = require('typescript');
const pg = require('pg');

const ROOT = path.resolve(__dirname, '..');
const ADMIN_URL =
  process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const LLM_DELAY_MS = Number(process.env.BENCH_LLM_DELAY_MS || 400);
const WEB_LATENCY_MS = Number(process.env.BENCH_WEB_LATENCY_MS || 20);
const CONCURRENCY = Number(process.env.BENCH_LLM_CONCURRENCY || 4);
const TARGET = 1.3;

// Load TypeScript sources directly: @research/<pkg> → packages/<pkg>/src, .ts transpiled by TypeScript on require.
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const match = /^@research\/([^/]+)$/.exec(request);
  if (match) request = path.join(ROOT, 'packages', match[1], 'src', 'index.ts');
  return resolveFilename.call(this, request, parent, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { outputText } = ts.transpileModule(fs.readFileSync(filename, 'utf8'), {
    fileName: filename,
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.CommonJS, esModuleInterop: true },
  });
  module._compile(outputText, filename);
};

async function admin(sql) {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Splits the LLM requests into phases: a phase ends when nothing is in flight and no request follows
 * within PHASE_GAP_MS (requests queued behind the concurrency limit follow their predecessor's answer
 * within a millisecond or two; the next step's first request comes after a commit and web work).
 */
const PHASE_GAP_MS = 25;
function phasesOf(requests) {
  const phases = [];
  let current = null;
  for (const r of [...requests].sort((a, b) => a.receivedAt - b.receivedAt)) {
    if (!current || r.receivedAt > current.lastAnswer + PHASE_GAP_MS) {
      current = { calls: 0, lastAnswer: 0, names: new Set(), start: r.receivedAt };
      phases.push(current);
    }
    current.calls++;
    current.names.add(r.schemaName);
    current.lastAnswer = Math.max(current.lastAnswer, r.answeredAt || r.receivedAt + LLM_DELAY_MS);
  }
  return phases;
}

async function main() {
  const { loadConfig, DEPTH_BUDGETS } = require('@research/core');
  const { connectPostgres, migrateToLatest, insertRun } = require('@research/database');
  const { createMetrics, createSilentLogger } = require('@research/observability');
  const { createResearchRunner } = require('@research/pipeline');
  const { createEvidenceEngine, createLlmClient } = require('@research/engine');
  const { startFakeLlm } = require(path.join(ROOT, 'test/fakes/fake-llm.ts'));
  const { startFakeWeb } = require(path.join(ROOT, 'test/fakes/fake-web.ts'));
  const { hotpotItems, hotpotPages, loopbackWebAccess } = require(path.join(ROOT, 'test/engine/engine-support.ts'));

  const name = `rs_bench_pipeline_${crypto.randomBytes(4).toString('hex')}`;
  await admin(`create database ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const handle = connectPostgres(url.toString(), { max: 5, applicationName: 'bench-pipeline' });
  const llm = await startFakeLlm({ latencyMs: LLM_DELAY_MS });
  const items = hotpotItems();
  const web = await startFakeWeb({ pages: hotpotPages(items), pageLatencyMs: WEB_LATENCY_MS });
  try {
    await migrateToLatest(handle.db);
    const config = loadConfig({
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'bench',
      LLM_MAX_CONCURRENCY: String(CONCURRENCY),
      LOG_LEVEL: 'error',
    });
    const metrics = createMetrics({ defaultMetrics: false });
    const logger = createSilentLogger();
    const engine = createEvidenceEngine({
      config,
      logger,
      metrics,
      web: loopbackWebAccess(web.searchUrl, config),
      llm: createLlmClient({ config: config.llm, metrics, logger }),
    });
    const runner = createResearchRunner({ db: handle.db, engine, metrics, logger, pollIntervalMs: 500 });
    const item = items.find((i) => !['yes', 'no'].includes(i.answer.toLowerCase()));
    const run = await insertRun(handle.db, {
      id: crypto.randomUUID(),
      query: item.question,
      language: 'en',
      depth: 'normal',
      budget: JSON.stringify(DEPTH_BUDGETS.normal),
      state: 'created',
      owner_user_id: null,
      extra_queries: null,
      request_id: 'bench',
    });
    const started = performance.now();
    const startedAt = Date.now();
    await runner(
      { research_id: run.id },
      { id: 'bench', attempt: 1, maxAttempts: 1, signal: new AbortController().signal },
    );
    const wallMs = performance.now() - started;
    const done = await handle.db
      .selectFrom('research_runs')
      .selectAll()
      .where('id', '=', run.id)
      .executeTakeFirstOrThrow();
    const usage = done.usage;
    const phases = phasesOf(llm.requests);
    const boundMs = phases.reduce((n, p) => n + Math.ceil(p.calls / CONCURRENCY) * LLM_DELAY_MS, 0);
    const throughputBoundMs = Math.ceil(llm.requests.length / CONCURRENCY) * LLM_DELAY_MS;
    const ratio = wallMs / boundMs;
    console.log(`state: ${done.state}; sources ${done.source_count}; claims ${done.claim_count}`);
    console.log(
      `LLM calls per run: ${usage.llm_requests} (budget ${DEPTH_BUDGETS.normal.max_llm_requests}); tokens in ${usage.llm_tokens_input}, out ${usage.llm_tokens_output}`,
    );
    console.log(
      `phases: ${phases.map((p) => `${[...p.names].join('+')}×${p.calls}`).join(' → ')}; LLM_MAX_CONCURRENCY ${CONCURRENCY}, delay ${LLM_DELAY_MS} ms, web latency ${WEB_LATENCY_MS} ms`,
    );
    console.log(
      `wall ${wallMs.toFixed(0)} ms; lower bound ${boundMs} ms (pure throughput bound ${throughputBoundMs} ms); ratio ${ratio.toFixed(2)} (target <= ${TARGET})`,
    );
    if (process.env.BENCH_VERBOSE)
      for (const p of phases)
        console.log(`  phase ${[...p.names]} x${p.calls}: ${p.start - startedAt} → ${p.lastAnswer - startedAt} ms`);
    console.log(done.state === 'completed' && ratio <= TARGET ? 'PASS' : 'MISS');
    if (done.state !== 'completed' || ratio > TARGET) process.exitCode = 1;
  } finally {
    await llm.close();
    await web.close();
    await handle.close();
    await admin(`drop database if exists ${name} with (force)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
