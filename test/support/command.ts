import { spawnSync } from 'node:child_process';
import { SKIP_PREFIXES, describeByPlan, planSuite, type DataLookup } from './data-dir';

/** Whether `command` runs here (asked with `-v`), or why not. */
export function findCommand(command: string, install: string): DataLookup {
  const probe = spawnSync(command, ['-v'], { stdio: 'ignore' });
  return probe.error
    ? { found: false, reason: `${command} is not installed (${install}; .ci/run installs it)` }
    : { found: true, dir: command };
}

/**
 * A describe block that needs a program outside the repository (`pdftotext`): skipped with the reason
 * without it, or failing when RESEARCH_DATA_REQUIRED is set (CI installs it), as describeWithData does.
 */
export function describeWithCommand(title: string, command: string, install: string, body: () => void): void {
  describeByPlan(title, planSuite(findCommand(command, install)), () => body(), SKIP_PREFIXES.tool);
}
