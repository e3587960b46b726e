// npm run bench:pipeline [-- --smoke] — wall time of one `normal` research run with the LLM engine against
// the lower bound its LLM calls set. The fake OpenAI-compatible server answers every request after a fixed
// delay (BENCH_LLM_DELAY_MS, default 400) and the loopback web (HotpotQA's paragraphs as pages, from
// RESEARCH_DATA_DIR) answers after a fixed latency (BENCH_WEB_LATENCY_MS, default 20). The engine, the
// crawler (page cache off: every page is fetched and extracted) and the LLM client are built as a worker
// builds them. Bound: the steps that call the LLM (plan, claims of round 1, claims of round 2, report) run one
// after the other, each needing the one before; a step of n calls takes at least ceil(n / LLM_MAX_CONCURRENCY)
// delays. Target (issue 4): wall time within 1.3x of that bound, for the median of BENCH_RUNS (3) runs in a
// warm worker (a first run pays once for the extraction threads' start; it is measured and printed too). The packages run compiled
// (the npm script builds first); the fakes are the tests' own.
'use strict';
const crypto = require('node:crypto');
const os = require('node:os');
const path = require('node:path');
const { createBench } = require('./bench/harness');
const { createBenchDatabase } = require('./bench/services');

require('./bench/require-typescript');

const ROOT = path.resolve(__dirname, '..');
const bench = createBench('bench:pipeline', {
  figures: ['wall_ms', 'bound_ms', 'ratio', 'llm_calls', 'first_run_wall_ms', 'first_run_ratio'],
});
const LLM_DELAY_MS = Number(process.env.BENCH_LLM_DELAY_MS || bench.size(400, 20));
const WEB_LATENCY_MS = Number(process.env.BENCH_WEB_LATENCY_MS || bench.size(20, 2));
const CONCURRENCY = Number(process.env.BENCH_LLM_CONCURRENCY || 4);
// Warm runs measured (on different questions); the target is judged on their median.
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS || bench.size(3, 1)));
const TARGET = 1.3;

/**
 * The LLM calls of each step. Steps run one after the other (each needs the records of the one before), so
 * the calls of one step can only overlap each other: a step with n calls takes at least
 * ceil(n / LLM_MAX_CONCURRENCY) delays, and the run at least the sum over its steps.
 */
function phasesOf(requests, steps) {
  return steps
    .map((step) => ({
      step: step.step,
      calls: requests.filter((r) => r.receivedAt >= step.startedAt && r.receivedAt <= step.endedAt).length,
    }))
    .filter((phase) => phase.calls > 0);
}

/** The registered steps, each timed: where a run's time goes besides its LLM calls. */
function timedSteps(registered, steps) {
  const timed = {};
  for (const { name: step, compute } of registered) {
    timed[step] = async (snapshot, ctx) => {
      const start = performance.now();
      const startedAt = Date.now();
      try {
        return await compute(snapshot, ctx);
      } finally {
        // Epoch milliseconds as well: the fake LLM stamps its requests with Date.now().
        steps.push({ step: `${step}#${ctx.round}`, start, end: performance.now(), startedAt, endedAt: Date.now() });
      }
    };
  }
  return timed;
}

async function main() {
  const dataDir = bench.dataDir(['qa/hotpotqa-dev/hotpot_dev_distractor.json']);
  const { loadConfig, DEPTH_BUDGETS } = require('@research/core');
  const { createCrawler } = require('@research/crawler');
  const { connectPostgres, migrateToLatest, insertRun } = require('@research/database');
  const { createMetrics, createSilentLogger } = require('@research/observability');
  const { createResearchRunner, RESEARCH_STEPS } = require('@research/pipeline');
  const { createLlmClient } = require('@research/llm');
  const { startFakeLlm } = require(path.join(ROOT, 'test/fakes/fake-llm.ts'));
  const { startFakeWeb } = require(path.join(ROOT, 'test/fakes/fake-web.ts'));
  const support = require(path.join(ROOT, 'test/engine/engine-support.ts'));

  const all = support.hotpotItems(dataDir);
  const open = support.openHotpotItems(all);
  const measured = open.slice(0, RUNS);
  const warmUp = open[RUNS];
  const database = await createBenchDatabase('bench_pipeline');
  const handle = connectPostgres(database.url, { max: 5, applicationName: 'bench-pipeline' });
  const llm = await startFakeLlm({ latencyMs: LLM_DELAY_MS });
  const web = await startFakeWeb({ pages: support.hotpotPages(all), pageLatencyMs: WEB_LATENCY_MS });
  let crawler;
  try {
    await migrateToLatest(handle.db);
    const config = loadConfig({
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'bench',
      LLM_MAX_CONCURRENCY: String(CONCURRENCY),
      LOG_LEVEL: 'error',
      // The loopback web lives on private addresses.
      CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
      CRAWLER_CACHE_TTL_SECONDS: '0',
    });
    const metrics = createMetrics({ defaultMetrics: false });
    const logger = createSilentLogger();
    // As services.ts builds a worker's crawler (default pool threads and politeness).
    crawler = createCrawler({ config, logger, metrics, db: handle.db });
    const steps = [];
    const services = {
      llm: createLlmClient({ config: config.llm, metrics, logger }),
      searchProvider: support.loopbackSearchProvider(web.searchUrl),
      crawler,
      localCorpusDir: undefined,
    };
    const runner = createResearchRunner({
      db: handle.db,
      services,
      steps: timedSteps(RESEARCH_STEPS, steps),
      metrics,
      logger,
      pollIntervalMs: 500,
    });

    async function timeRun(item) {
      llm.requests.length = 0;
      steps.length = 0;
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
      await runner(
        { research_id: run.id },
        { id: 'bench', attempt: 1, maxAttempts: 1, afterOutage: false, signal: new AbortController().signal },
      );
      const wallMs = performance.now() - started;
      const done = await handle.db
        .selectFrom('research_runs')
        .selectAll()
        .where('id', '=', run.id)
        .executeTakeFirstOrThrow();
      const phases = phasesOf(llm.requests, steps);
      const boundMs = phases.reduce((n, p) => n + Math.ceil(p.calls / CONCURRENCY) * LLM_DELAY_MS, 0);
      return { done, wallMs, boundMs, phases, steps: [...steps], calls: llm.requests.length };
    }

    const first = await timeRun(warmUp);
    const runs = [];
    for (const item of measured) runs.push(await timeRun(item));
    const failed = [first, ...runs].filter((x) => x.done.state !== 'completed');
    if (failed.length > 0) throw new Error(`${failed.length} run(s) ended ${failed[0].done.state}, not completed`);
    const ratioOf = (x) => x.wallMs / x.boundMs;
    const r = [...runs].sort((a, b) => ratioOf(a) - ratioOf(b))[Math.floor(runs.length / 2)];
    const usage = r.done.usage;
    const ratio = ratioOf(r);
    console.log(
      `bench:pipeline${bench.smoke ? ' --smoke' : ''}: normal runs, LLM delay ${LLM_DELAY_MS} ms, ` +
        `LLM_MAX_CONCURRENCY ${CONCURRENCY}, web latency ${WEB_LATENCY_MS} ms, load average ${os.loadavg()[0].toFixed(2)}`,
    );
    const summary = (x) =>
      `wall ${x.wallMs.toFixed(0)} ms, bound ${x.boundMs} ms, ratio ${ratioOf(x).toFixed(2)} ` +
      `(${x.calls} LLM calls, ${x.done.source_count} sources, ${x.done.claim_count} claims)`;
    console.log(`first run of the process (extraction threads starting): ${summary(first)}`);
    runs.forEach((x, i) => console.log(`warm run ${i + 1}: ${summary(x)}`));
    console.log(`median warm run:`);
    console.log(
      `  LLM calls: ${usage.llm_requests} (budget ${DEPTH_BUDGETS.normal.max_llm_requests}); tokens in ${usage.llm_tokens_input}, out ${usage.llm_tokens_output}`,
    );
    console.log(`  LLM calls by step: ${r.phases.map((p) => `${p.step}×${p.calls}`).join(' → ')}`);
    console.log(`  steps (ms): ${r.steps.map((x) => `${x.step} ${(x.end - x.start).toFixed(0)}`).join(', ')}`);
    // Where the time beyond the bound goes: steps without LLM calls, LLM steps beyond their share of the
    // bound, and the orchestrator's work between steps.
    const llmSteps = new Map(r.phases.map((p) => [p.step, Math.ceil(p.calls / CONCURRENCY) * LLM_DELAY_MS]));
    const beyond = new Map();
    for (const x of r.steps) {
      const kind = x.step.split('#')[0];
      const key = llmSteps.has(x.step) ? `${kind} (LLM step, beyond its bound)` : kind;
      beyond.set(key, (beyond.get(key) ?? 0) + (x.end - x.start) - (llmSteps.get(x.step) ?? 0));
    }
    const inSteps = r.steps.reduce((n, x) => n + x.end - x.start, 0);
    beyond.set('between steps (checkpoint commits, snapshot reads)', r.wallMs - inSteps);
    const parts = [...beyond].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} ${v.toFixed(0)}`);
    console.log(`  beyond the bound (${(r.wallMs - r.boundMs).toFixed(0)} ms): ${parts.join(', ')}`);
    console.log(
      `  wall ${r.wallMs.toFixed(0)} ms; lower bound ${r.boundMs} ms (pure throughput bound ${Math.ceil(r.calls / CONCURRENCY) * LLM_DELAY_MS} ms); ratio ${ratio.toFixed(2)}`,
    );
    bench.figure('wall_ms', Math.round(r.wallMs));
    bench.figure('bound_ms', r.boundMs);
    bench.figure('ratio', Number(ratio.toFixed(2)));
    bench.figure('llm_calls', r.calls);
    bench.figure('first_run_wall_ms', Math.round(first.wallMs));
    bench.figure('first_run_ratio', Number(ratioOf(first).toFixed(2)));
    bench.target(
      ratio <= TARGET,
      `normal run wall time ${ratio.toFixed(2)}x its LLM lower bound, median of ${runs.length} warm run(s) (target <= ${TARGET}x)`,
    );
  } finally {
    await crawler?.close();
    await llm.close();
    await web.close();
    await handle.close();
    await database.drop();
  }
}

bench.run(main);
