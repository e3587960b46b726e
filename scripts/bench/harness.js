// What every `npm run bench:*` shares: the --smoke mode, its figures, its PASS/MISS targets, the third-party
// data it may need, and an exit code that says whether it completed. scripts/bench/smoke-all.js (run by
// .ci/run) runs each bench with --smoke and reads the `bench-result:` line this file prints last.
'use strict';
const path = require('node:path');

const SMOKE = process.argv.includes('--smoke');
const RESULT_PREFIX = 'bench-result: ';

/**
 * A bench named `name` (its npm script) that must report every figure of `figures`. `--smoke` runs it in
 * seconds on tiny sizes: it must still complete and report its figures, but its targets are not judged
 * (tiny sizes say nothing about them). A full run exits 1 when a target is missed.
 */
function createBench(name, { figures }) {
  const reported = new Map();
  const targets = [];
  const started = performance.now();
  let finished = false;

  function result(status, detail) {
    finished = true;
    const seconds = (performance.now() - started) / 1000;
    const line = {
      name,
      mode: SMOKE ? 'smoke' : 'full',
      status,
      seconds: Number(seconds.toFixed(1)),
      figures: Object.fromEntries(reported),
      missed: targets.filter((t) => !t.ok).map((t) => t.text),
      ...(detail ? { detail } : {}),
    };
    console.log(`${RESULT_PREFIX}${JSON.stringify(line)}`);
  }

  return {
    name,
    smoke: SMOKE,

    /** Picks the full-size or the smoke value of a setting. */
    size(full, smoke) {
      return SMOKE ? smoke : full;
    },

    /** Records a figure the bench must report (a finite number). */
    figure(key, value) {
      if (!figures.includes(key)) throw new Error(`${name}: figure ${key} is not declared`);
      reported.set(key, value);
    },

    /** Prints one PASS/MISS line. */
    target(ok, text) {
      targets.push({ ok, text });
      console.log(`${ok ? 'PASS' : 'MISS'}  ${text}${!ok && SMOKE ? ' (smoke run: not judged)' : ''}`);
    },

    /**
     * The third-party data directory holding `needs` (test/support/data-dir.ts resolves it, as for the
     * tests). Without it the bench ends here: skipped with the reason, or failed under RESEARCH_DATA_REQUIRED.
     */
    dataDir(needs) {
      require('./require-typescript');
      const { planDataSuite } = require(path.join(__dirname, '..', '..', 'test', 'support', 'data-dir.ts'));
      const plan = planDataSuite(needs);
      if (plan.kind === 'run') return plan.dir;
      console.log(`${plan.kind === 'fail' ? 'FAIL' : 'SKIP'}  ${name}: third-party data not found: ${plan.reason}`);
      if (plan.kind === 'fail') {
        result('failed', `RESEARCH_DATA_REQUIRED is set and the data is missing: ${plan.reason}`);
        process.exit(1);
      }
      result('skipped', plan.reason);
      process.exit(0);
    },

    /** Runs the bench and exits: 0 when it completed with every figure (and, in a full run, every target met). */
    run(main) {
      // Children, pools and sockets a bench forgot must not keep a finished bench alive.
      Promise.resolve()
        .then(main)
        .then(
          () => {
            const missing = figures.filter((key) => !Number.isFinite(reported.get(key)));
            if (missing.length > 0) {
              console.error(`${name}: did not report its figures: ${missing.join(', ')}`);
              result('failed', `missing figures: ${missing.join(', ')}`);
              process.exit(1);
            }
            result('complete');
            process.exit(!SMOKE && targets.some((t) => !t.ok) ? 1 : 0);
          },
          (error) => {
            console.error(error);
            if (!finished) result('failed', `did not complete: ${error?.message ?? error}`);
            process.exit(1);
          },
        );
    },
  };
}

module.exports = { createBench, RESULT_PREFIX };
