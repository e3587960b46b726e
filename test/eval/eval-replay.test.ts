import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { reportText } from '@research/engine';
import { QUESTION_SETS, type QaItem } from '../../scripts/eval/question-sets';
import { readSavedRun, rewriteReport } from '../../scripts/eval/replay';
import { describeWithData, REPO_ROOT } from '../support/data-dir';

const run = promisify(execFile);

/** Runs `npm run eval -- <args>` as a user does and returns its output and its closing figures. */
async function evaluate(dataDir: string, ...args: string[]) {
  const { stdout } = await run(process.execPath, [path.join(REPO_ROOT, 'scripts', 'eval.js'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, RESEARCH_DATA_DIR: dataDir },
    maxBuffer: 64 * 1024 * 1024,
  });
  const result = JSON.parse(stdout.split('bench-result: ')[1]!) as { figures: Record<string, number> };
  return { stdout, figures: result.figures };
}

describeWithData('npm run eval --replay (third-party data)', [QUESTION_SETS['hotpotqa-dev'].file], (dataDir) => {
  const saveDir = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-replay-'));
  afterAll(() => fs.rmSync(saveDir, { recursive: true, force: true }));

  it("writes the saved runs' reports again as the runs wrote them, without running them", async () => {
    const ran = await evaluate(dataDir, 'hotpot', '--limit', '3', '--save', saveDir);
    expect(fs.readdirSync(saveDir)).toHaveLength(3);
    const replayed = await evaluate(dataDir, 'hotpot', '--limit', '3', '--replay', saveDir);
    expect(replayed.stdout).toContain(`3 saved runs of ${saveDir} replayed; 0 judged otherwise than as saved`);
    for (const figure of ['questions', 'both_pages', 'answer_in_report', 'answer_first', 'grounding'])
      expect({ figure, value: replayed.figures[figure] }).toEqual({ figure, value: ran.figures[figure] });
  }, 300_000);

  it("writes each report from the run's stored rows: the same report, and none without the claims", async () => {
    const name = fs.readdirSync(saveDir)[0]!.replace(/\.json$/, '');
    const saved = readSavedRun<QaItem, unknown>(saveDir, name);
    const again = await rewriteReport(saved.run, saved.item.question);
    expect(again.summary).toBe(saved.run.report.summary);
    expect(again.findings.map((f) => f.text)).toEqual(saved.run.report.findings.map((f) => f.text));
    const unread = await rewriteReport({ ...saved.run, claims: [], evidence: [] }, saved.item.question);
    expect(unread.findings).toEqual([]);
    expect(unread.summary).toBe(reportText('en').notAnswered(saved.run.sources.length));
  });

  it('names the save to make when a run was not saved', async () => {
    const failed = await evaluate(dataDir, 'hotpot', '--limit', '4', '--replay', saveDir).then(
      () => null,
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failed?.code).not.toBe(0);
    expect(`${failed?.stdout}${failed?.stderr}`).toContain(`--replay: no saved run ${path.join(saveDir, 'q04-')}`);
  }, 60_000);
});
