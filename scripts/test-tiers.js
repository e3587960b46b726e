// The tiers of the tests. A test is of the unit tier when neither it nor a test helper it imports (test/ and
// scripts/, followed through their relative imports) reaches Postgres, Redis, a queue, another process, a browser,
// the compiled code or the third-party data, nor times the event loop under large inputs (a stress test): `npm run
// test:unit` runs that tier in seconds with nothing started (jest.unit.config.ts). The rest
// is the integration and end-to-end tiers, which `npm test` runs with the unit tier.
// `node scripts/test-tiers.js` prints each tier's files.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');

/** What in a test or a helper's text makes it more than a unit test. */
const NEEDS_MORE = [
  [/from '(?:pg|ioredis|bullmq|playwright-core|testcontainers)'/, 'a database, Redis, a queue or a browser'],
  [/node:child_process|from 'child_process'/, 'another process'],
  [/TEST_DATABASE_URL|TEST_REDIS_URL|createTestDatabase/, 'the test services'],
  [/@research\/(?:runtime|database|queue|auth)'/, 'a package that holds connections'],
  [/\/dist\//, 'the compiled code'],
  [/describeWithData|RESEARCH_DATA_DIR/, 'the third-party data'],
  // Megabytes of hostile input (text timed on the event loop, PDFs that inflate to hundreds of MB): seconds of
  // CPU each, a stress test.
  [/worstEventLoopBlock|await pdfBomb\(/, 'a stress test (hostile inputs of megabytes)'],
];

/** The test files of the repository, relative to its root. */
function testFiles() {
  const out = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === 'dist') continue;
      const rel = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(rel);
      else if (/\.test\.tsx?$/.test(entry.name)) out.push(rel);
    }
  };
  for (const top of ['test', 'packages', 'apps']) walk(top);
  return out.sort();
}

/** The file a relative import names, or null (a package, or a file this resolution does not find). */
function resolveImport(from, specifier) {
  const base = path.resolve(path.dirname(path.join(ROOT, from)), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.js`, path.join(base, 'index.ts')]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return path.relative(ROOT, candidate);
  }
  return null;
}

/** Why a test file is not of the unit tier (null when it is): the first mark found in it or its test helpers. */
function needsMore(file) {
  const seen = new Set();
  const queue = [file];
  while (queue.length > 0) {
    const current = queue.pop();
    if (seen.has(current)) continue;
    seen.add(current);
    const text = fs.readFileSync(path.join(ROOT, current), 'utf8');
    // A type-only import loads nothing when the test runs.
    const loaded = text.replace(/^import type [^;]+;$/gm, '');
    for (const [mark, what] of NEEDS_MORE) if (mark.test(loaded)) return `${current}: ${what}`;
    for (const m of text.matchAll(/(?:from|import\(|require\()\s*'(\.{1,2}\/[^']+)'/g)) {
      const next = resolveImport(current, m[1]);
      // Helpers are followed; the packages' own code is what the tests test, not how they run.
      if (next && /^(?:test|scripts)\//.test(next)) queue.push(next);
    }
  }
  return null;
}

/** Each test file with its tier and, for the others, why. */
function tiers() {
  return testFiles().map((file) => {
    const why = needsMore(file);
    return { file, tier: why ? 'integration' : 'unit', why };
  });
}

if (require.main === module) {
  for (const { file, tier, why } of tiers()) console.log(`${tier.padEnd(11)} ${file}${why ? `  (${why})` : ''}`);
}

module.exports = { tiers };
