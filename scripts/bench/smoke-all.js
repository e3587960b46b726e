// Runs every `bench:*` script of package.json with --smoke, one after the other (.ci/run runs this after the
// tests), then each evaluation of `npm run eval` with --smoke (one or two items each, seconds; multihop one
// question of each of its three sets, on a service stack each; local one question of each kind). A bench passes when it exits 0 and its last `bench-result:` line (scripts/bench/harness.js) says it
// completed in smoke mode; a skip (no third-party data) passes only while RESEARCH_DATA_REQUIRED is unset.
// Exits 1 when any bench failed, naming each.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');
const { RESULT_PREFIX } = require('./harness');

require('./require-typescript');
const { dataRequired } = require('../../test/support/data-dir.ts');

const ROOT = path.resolve(__dirname, '..', '..');
// A smoke run takes seconds; this only stops one that hangs.
const TIMEOUT_MS = Number(process.env.BENCH_SMOKE_TIMEOUT_MS || 300_000);

// The evaluations of `npm run eval` (scripts/eval.js), each a smoke run of its own.
const EVAL_SUITES = ['hotpot', 'multihop', 'unanswerable', 'contradiction', 'local'];

/** Each smoke run: its name, the npm script and the arguments before --smoke. */
function smokeRuns() {
  const { scripts } = require(path.join(ROOT, 'package.json'));
  const benches = Object.keys(scripts)
    .filter((name) => name.startsWith('bench:'))
    .sort()
    .map((script) => ({ name: script, script, args: [] }));
  return [...benches, ...EVAL_SUITES.map((suite) => ({ name: `eval ${suite}`, script: 'eval', args: [suite] }))];
}

/** Runs `npm run <script> -- <args> --smoke`, echoing its output, and resolves with its exit and output. */
function runSmoke({ script, args }) {
  return new Promise((resolve) => {
    // Its own process group, so a timeout stops npm, node and whatever the bench started.
    const child = spawn('npm', ['run', '--silent', script, '--', ...args, '--smoke'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk) => process.stderr.write(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }, TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, timedOut, output });
    });
  });
}

/** Why a finished smoke run does not count as passed, or null when it does. */
function verdict(run) {
  if (run.timedOut) return `did not finish within ${TIMEOUT_MS / 1000} s`;
  const line = run.output
    .split('\n')
    .filter((l) => l.startsWith(RESULT_PREFIX))
    .pop();
  if (run.code !== 0) return `exited with ${run.code ?? run.signal}`;
  if (!line) return 'printed no bench-result line: a bench reports through scripts/bench/harness.js';
  const result = JSON.parse(line.slice(RESULT_PREFIX.length));
  if (result.mode !== 'smoke') return 'did not run in smoke mode (--smoke ignored)';
  if (result.status === 'skipped')
    return dataRequired() ? `skipped although the data is required: ${result.detail}` : null;
  if (result.status !== 'complete') return `ended ${result.status}: ${result.detail ?? ''}`;
  return null;
}

async function main() {
  const runs = smokeRuns();
  const failures = [];
  const started = Date.now();
  for (const run of runs) {
    console.log(`\n=== ${run.name} --smoke`);
    const t0 = Date.now();
    const problem = verdict(await runSmoke(run));
    console.log(
      `=== ${run.name} --smoke: ${problem ? `FAILED, ${problem}` : 'ok'} (${((Date.now() - t0) / 1000).toFixed(1)} s)`,
    );
    if (problem) failures.push(`${run.name}: ${problem}`);
  }
  console.log(
    `\nbench smoke runs: ${runs.length - failures.length} of ${runs.length} passed in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const failure of failures) console.log(`  FAILED ${failure}`);
  process.exit(failures.length > 0 ? 1 : 0);
}

main();
