// A jest reporter: at the end of the run, lists every data-driven suite that was skipped and why. Jest prints
// no console output of a file whose tests were all skipped, so the reason would otherwise be invisible.
'use strict';
const path = require('node:path');

// The titles of the placeholder test of a skipped suite (SKIP_PREFIXES of test/support/data-dir.ts).
const SKIP_PREFIXES = ['needs third-party data: ', 'needs a tool: '];

class DataSkipReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.skips = [];
  }

  onTestResult(_test, result) {
    for (const test of result.testResults) {
      const prefix = SKIP_PREFIXES.find((p) => test.title.startsWith(p));
      if (test.status !== 'pending' || !prefix) continue;
      this.skips.push({
        where: [path.relative(this.rootDir, result.testFilePath), ...test.ancestorTitles].join(' › '),
        reason: test.title.slice(prefix.length),
      });
    }
  }

  onRunComplete() {
    if (this.skips.length === 0) return;
    const lines = this.skips.map((s) => `  - ${s.where}: ${s.reason}`);
    process.stdout.write(
      `\nSkipped ${this.skips.length} suite(s), third-party data or a tool not found (RESEARCH_DATA_DIR, see docs/development.md, "Tests"):\n` +
        `${lines.join('\n')}\n`,
    );
  }
}

module.exports = DataSkipReporter;
