// A jest reporter: at the end of the run, lists every data-driven suite that was skipped and why. Jest prints
// no console output of a file whose tests were all skipped, so the reason would otherwise be invisible.
'use strict';
const path = require('node:path');

// The title of the placeholder test of a skipped suite; test/support/data-dir.ts writes it.
const SKIP_PREFIX = 'needs third-party data: ';

class DataSkipReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.skips = [];
  }

  onTestResult(_test, result) {
    for (const test of result.testResults) {
      if (test.status !== 'pending' || !test.title.startsWith(SKIP_PREFIX)) continue;
      this.skips.push({
        where: [path.relative(this.rootDir, result.testFilePath), ...test.ancestorTitles].join(' › '),
        reason: test.title.slice(SKIP_PREFIX.length),
      });
    }
  }

  onRunComplete() {
    if (this.skips.length === 0) return;
    const lines = this.skips.map((s) => `  - ${s.where}: ${s.reason}`);
    process.stdout.write(
      `\nSkipped ${this.skips.length} data-driven suite(s), third-party data not found (RESEARCH_DATA_DIR, see README "Tests"):\n` +
        `${lines.join('\n')}\n`,
    );
  }
}

module.exports = DataSkipReporter;
