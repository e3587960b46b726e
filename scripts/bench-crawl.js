#!/usr/bin/env node
// npm run bench:crawl [-- --smoke] — crawl extraction benchmark: every page of the third-party data's
// pages/ (RESEARCH_DATA_DIR) served over loopback, fetched and extracted by the crawler twice, once with the
// worker-thread pool and once on the main thread, each in a fresh child process so peak RSS is its own.
// Prints pages/s, peak RSS, event-loop delay p99. --smoke: 6 pages, one round, a warm-up of 2 pages.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const zlib = require('node:zlib');
const { monitorEventLoopDelay } = require('node:perf_hooks');
const { createBench } = require('./bench/harness');

const READABILITY_PAGES = 'pages/readability/test/test-pages';
const SCRAPINGHUB_PAGES = 'pages/scrapinghub-dev/html';
const TARGET_RATIO = 1.8;
const TARGET_P99_MS = 50;
const SMOKE = process.argv.includes('--smoke');
const ROUNDS = Math.max(1, Number(process.env.ROUNDS ?? (SMOKE ? 1 : 3)));
// Pages extracted before the clock starts (default: one whole pass), the same in both modes.
const WARMUP_PAGES = Number(process.env.WARMUP_PAGES ?? (SMOKE ? 2 : Infinity));
// Pages taken from each of the two sets (smoke: a few).
const PAGES_PER_SET = SMOKE ? 3 : Infinity;

/** The pages of the data directory `dataDir` (the parent finds it and hands it to each child). */
function loadPages(dataDir) {
  const pages = [];
  const readabilityDir = path.join(dataDir, READABILITY_PAGES);
  for (const name of fs.readdirSync(readabilityDir).sort().slice(0, PAGES_PER_SET)) {
    const file = path.join(readabilityDir, name, 'source.html');
    if (fs.existsSync(file)) pages.push(fs.readFileSync(file));
  }
  const scrapinghubDir = path.join(dataDir, SCRAPINGHUB_PAGES);
  for (const name of fs.readdirSync(scrapinghubDir).sort().slice(0, PAGES_PER_SET)) {
    pages.push(zlib.gunzipSync(fs.readFileSync(path.join(scrapinghubDir, name))));
  }
  return pages;
}

async function runMode(mode, dataDir) {
  const { createCrawler } = require('../packages/crawler/dist');
  const { loadConfig } = require('../packages/core/dist');
  const { createMetrics, createSilentLogger } = require('../packages/observability/dist');
  const pages = loadPages(dataDir);
  const server = http.createServer((req, res) => {
    const index = Number(req.url.split('/')[2]);
    const body = pages[index];
    if (!body) return res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-length': body.length }).end(body);
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = server.address().port;
  const config = loadConfig({
    CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
    CRAWLER_RESPECT_ROBOTS: 'false',
    CRAWLER_TIMEOUT_MS: '120000',
  });
  const threads = os.availableParallelism();
  const crawler = createCrawler({
    config,
    logger: createSilentLogger(),
    metrics: createMetrics({ defaultMetrics: false }),
    options: {
      extraction: { mode, threads, taskTimeoutMs: 120_000 },
      perHostConcurrency: 64,
      politenessDelayMs: 0,
      minContentChars: 0,
    },
  });
  const url = (i) => `http://127.0.0.1:${port}/page/${i}`;
  const inFlight = mode === 'pool' ? threads * 3 : 4;
  let failed = 0;
  const crawl = async (indexes) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: inFlight }, async () => {
        while (next < indexes.length) {
          const i = indexes[next++];
          try {
            await crawler.fetchDocument(url(i), { noCache: true });
          } catch {
            failed++;
          }
        }
      }),
    );
  };
  // Warm-up, the same for both modes: a pass over the pages, so that jsdom is loaded, its code compiled
  // and the heap grown in every thread (or on the main thread) before the clock starts. A worker runs for
  // hours: what counts is its steady state. Each pool thread has its own isolate to warm, so a short
  // warm-up favours the main thread (WARMUP_PAGES=40: ~1.6x instead of ~2x).
  await crawl(Array.from({ length: Math.min(WARMUP_PAGES, pages.length) }, (_, i) => i));
  failed = 0;

  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 20);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const cpuBefore = process.cpuUsage();
  const started = process.hrtime.bigint();
  await crawl(pages.map((_, i) => i));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  delay.disable();
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  await crawler.close();
  server.close();
  return {
    mode,
    threads: mode === 'pool' ? threads : 1,
    pages: pages.length,
    failed,
    seconds,
    pagesPerSecond: pages.length / seconds,
    peakRssMb: peakRss / 1024 / 1024,
    eventLoopP99Ms: delay.percentile(99) / 1e6,
    eventLoopMaxMs: delay.max / 1e6,
    // CPU seconds of all the process's threads per wall second: how many cores it actually got.
    coresUsed: cpuSeconds / seconds,
  };
}

function runChild(mode, dataDir) {
  const args = [__filename, '--mode', mode, '--data', dataDir, ...(SMOKE ? ['--smoke'] : [])];
  const child = spawnSync(process.execPath, args, { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) {
    process.stderr.write(child.stderr);
    throw new Error(`the ${mode} round exited with ${child.status ?? child.signal}`);
  }
  return JSON.parse(child.stdout.trim().split('\n').pop());
}

/** The round whose rate is the median of the mode's rounds. */
function medianRound(rounds) {
  const sorted = [...rounds].sort((a, b) => a.pagesPerSecond - b.pagesPerSecond);
  return sorted[Math.floor(sorted.length / 2)];
}

function main(bench) {
  const dataDir = bench.dataDir([READABILITY_PAGES, SCRAPINGHUB_PAGES]);
  // Main and pool alternate, each round in fresh processes: a slow spell of the machine falls on both modes,
  // and the medians are compared (rates on a shared VM move by about +-8 % from one run to the next).
  const rounds = { main: [], pool: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const mode of ['main', 'pool']) rounds[mode].push(runChild(mode, dataDir));
  }
  const fmt = (r) =>
    `${r.mode.padEnd(4)} threads=${r.threads} pages=${r.pages} failed=${r.failed} time=${r.seconds.toFixed(2)}s ` +
    `rate=${r.pagesPerSecond.toFixed(2)} pages/s peakRSS=${r.peakRssMb.toFixed(0)} MiB ` +
    `eventLoopP99=${r.eventLoopP99Ms.toFixed(1)} ms (max ${r.eventLoopMaxMs.toFixed(1)} ms) coresUsed=${r.coresUsed.toFixed(2)}`;
  const main = medianRound(rounds.main);
  const pool = medianRound(rounds.pool);
  console.log(
    `crawl extraction benchmark over ${main.pages} pages on ${os.availableParallelism()} cores, ` +
      `median of ${ROUNDS} rounds, each after a warm-up of ${Math.min(WARMUP_PAGES, main.pages)} pages ` +
      `(load average ${os.loadavg()[0].toFixed(2)}: other work on the machine lowers the pool's share)`,
  );
  for (const mode of ['main', 'pool']) {
    const rates = rounds[mode].map((r) => r.pagesPerSecond.toFixed(2)).join(', ');
    console.log(`${mode.padEnd(4)} rounds: ${rates} pages/s`);
  }
  console.log(fmt(main));
  console.log(fmt(pool));
  const ratio = pool.pagesPerSecond / main.pagesPerSecond;
  // The pool's worst round, not its median: the event loop must stay free in every one.
  const p99 = Math.max(...rounds.pool.map((r) => r.eventLoopP99Ms));
  const failed = [...rounds.main, ...rounds.pool].reduce((n, r) => n + r.failed, 0);
  bench.figure('pages', main.pages);
  bench.figure('main_pages_per_s', Number(main.pagesPerSecond.toFixed(2)));
  bench.figure('pool_pages_per_s', Number(pool.pagesPerSecond.toFixed(2)));
  bench.figure('pool_main_ratio', Number(ratio.toFixed(2)));
  bench.figure('pool_event_loop_p99_ms', Number(p99.toFixed(1)));
  bench.target(ratio >= TARGET_RATIO, `pool/main throughput ratio ${ratio.toFixed(2)}x (target >= ${TARGET_RATIO}x)`);
  bench.target(
    p99 < TARGET_P99_MS,
    `pool event-loop delay p99 ${p99.toFixed(1)} ms, worst round (target < ${TARGET_P99_MS} ms)`,
  );
  if (failed > 0) throw new Error(`${failed} page extractions failed`);
}

const modeFlag = process.argv.indexOf('--mode');
if (modeFlag !== -1) {
  runMode(process.argv[modeFlag + 1], process.argv[process.argv.indexOf('--data') + 1]).then(
    (result) => console.log(JSON.stringify(result)),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  const bench = createBench('bench:crawl', {
    figures: ['pages', 'main_pages_per_s', 'pool_pages_per_s', 'pool_main_ratio', 'pool_event_loop_p99_ms'],
  });
  bench.run(() => main(bench));
}
