import fs from 'node:fs';
import path from 'node:path';

// Third-party data (real pages, QA sets, NLI pairs) is never part of the repository: tests and benchmarks
// that measure against it find it here, and everything else runs on fixtures the project writes itself.
// RESEARCH_DATA_DIR is CONTRACT 5's name; RESEARCH_DATA_REQUIRED is set by .ci/run, which has the data
// and must not pass with a data-driven suite skipped.

/** The repository root (this file is test/support/data-dir.ts). */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Where the data is looked for when RESEARCH_DATA_DIR is unset: `../shared/data` beside the repository. */
export const DEFAULT_DATA_DIR = path.resolve(REPO_ROOT, '..', 'shared', 'data');

export type DataLookup = { found: true; dir: string } | { found: false; reason: string };

/**
 * The data directory holding every path of `needs` (relative to it), or why there is none. An explicit
 * RESEARCH_DATA_DIR is used as given (relative to the working directory); the default only when it exists.
 */
export function findResearchData(needs: readonly string[], env: NodeJS.ProcessEnv = process.env): DataLookup {
  const configured = env.RESEARCH_DATA_DIR?.trim();
  const dir = configured ? path.resolve(configured) : DEFAULT_DATA_DIR;
  const origin = configured ? `RESEARCH_DATA_DIR=${configured}` : `the default data directory ${dir}`;
  if (!fs.existsSync(dir)) {
    return {
      found: false,
      reason: configured
        ? `${origin} does not exist`
        : `no RESEARCH_DATA_DIR set and ${origin} does not exist (set RESEARCH_DATA_DIR to run it)`,
    };
  }
  const missing = needs.filter((need) => !fs.existsSync(path.join(dir, need)));
  if (missing.length > 0) return { found: false, reason: `${origin} lacks ${missing.join(', ')}` };
  return { found: true, dir };
}

/** True when a missing data directory must fail the run instead of skipping (CI: RESEARCH_DATA_REQUIRED=1). */
export function dataRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  return /^(1|true|yes)$/i.test(env.RESEARCH_DATA_REQUIRED?.trim() ?? '');
}

/** What a data-driven suite does: run on the data, skip with a printed reason, or fail because CI needs it. */
export type DataSuitePlan =
  { kind: 'run'; dir: string } | { kind: 'skip'; reason: string } | { kind: 'fail'; reason: string };

export function planDataSuite(needs: readonly string[], env: NodeJS.ProcessEnv = process.env): DataSuitePlan {
  return planSuite(findResearchData(needs, env), env);
}

/** What a suite does with what it looked for outside the repository (see planDataSuite). */
export function planSuite(lookup: DataLookup, env: NodeJS.ProcessEnv = process.env): DataSuitePlan {
  if (lookup.found) return { kind: 'run', dir: lookup.dir };
  return dataRequired(env) ? { kind: 'fail', reason: lookup.reason } : { kind: 'skip', reason: lookup.reason };
}

/**
 * A describe block over third-party data: `body` gets the data directory. Without the data the block is
 * skipped (the reason is listed at the end of the run), or, with RESEARCH_DATA_REQUIRED set, it holds one failing test naming
 * what is missing. `body` only runs when the data is there, so it may read files while collecting tests.
 */
export function describeWithData(title: string, needs: readonly string[], body: (dir: string) => void): void {
  describeByPlan(title, planDataSuite(needs), body, SKIP_PREFIXES.data);
}

/** The titles of a skipped suite's placeholder test; test/support/data-skip-reporter.js finds them. */
export const SKIP_PREFIXES = { data: 'needs third-party data: ', tool: 'needs a tool: ' } as const;

/**
 * A describe block that runs, is skipped with its reason (listed at the end of the run) or fails (CI) as
 * `plan` says; `skipPrefix` names what was missing in the skipped placeholder's title.
 */
export function describeByPlan(
  title: string,
  plan: DataSuitePlan,
  body: (dir: string) => void,
  skipPrefix: string,
): void {
  if (plan.kind === 'run') {
    describe(title, () => body(plan.dir));
  } else if (plan.kind === 'fail') {
    describe(title, () => {
      it('has what it needs (RESEARCH_DATA_REQUIRED is set)', () => {
        throw new Error(`suite "${title}" cannot run: ${plan.reason}`);
      });
    });
  } else {
    describe.skip(title, () => {
      it(`${skipPrefix}${plan.reason}`, () => undefined);
    });
  }
}
