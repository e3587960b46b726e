// `npm run eval -- multihop [--part check|tune|all]`: the questions of hotpotqa-dev-large, 2wikimultihopqa-train
// and musique-train (default: their check parts), each set in its own world and on its own service stack, one
// after the other, judged as `hotpot` judges; one table at the end, a row per set.
import path from 'node:path';
import type { Bench } from '../bench/harness';
import { counted, groundedClaims, printTable, runCostRows, type EvalSettings } from './eval-world';
import { HOTPOT_FIGURES, missedLine, researchQaSet, tallyQa, type QaTally } from './hotpot';
import { median } from './protocol';
import { MULTIHOP_SETS, type QuestionSetName } from './question-sets';
import type { RunOutcome } from './service-stack';

/** The prefix of a set's figures on the closing `bench-result:` line: hotpotqa-dev-large → hotpotqa_dev_large. */
export function figurePrefix(set: QuestionSetName): string {
  return set.replace(/-/g, '_');
}

/** Every figure of `hotpot`, once per set: `hotpotqa_dev_large.both_pages`, …. */
export const MULTIHOP_FIGURES = MULTIHOP_SETS.flatMap((set) =>
  HOTPOT_FIGURES.map((figure) => `${figurePrefix(set)}.${figure}`),
);

/** `bench` recording each figure under `prefix.` */
function prefixedBench(bench: Bench, prefix: string): Bench {
  return { ...bench, figure: (key, value) => bench.figure(`${prefix}.${key}`, value) };
}

interface SetRow {
  set: QuestionSetName;
  tally: QaTally;
  outcomes: RunOutcome[];
}

/** Runs the chosen part of every multi-hop set and prints one table, a row per set. */
export async function evaluateMultihop(settings: EvalSettings): Promise<void> {
  const part = settings.part ?? 'check';
  const rows: SetRow[] = [];
  for (const set of MULTIHOP_SETS) {
    console.log(`\neval multihop: set ${set}`);
    const own: EvalSettings = {
      ...settings,
      bench: prefixedBench(settings.bench, figurePrefix(set)),
      saveDir: settings.saveDir === undefined ? undefined : path.join(settings.saveDir, set),
      replayDir: settings.replayDir === undefined ? undefined : path.join(settings.replayDir, set),
    };
    const { outcomes, judgements } = await researchQaSet(own, set, part);
    const tally = tallyQa(judgements, own);
    runCostRows(outcomes, own);
    rows.push({ set, tally, outcomes });
  }
  console.log('');
  printTable([
    [
      `part ${part}, ${settings.depth}`,
      'questions',
      'all gold pages',
      'all gold pages',
      'answer',
      'answer in the',
      "answer in the summary's",
      'first sentence',
      'completed',
      'grounding',
      'run s',
    ],
    [
      '',
      '',
      'run',
      'one search, top 10',
      'in report',
      '10 snippets',
      'first sentence',
      'stands alone',
      '',
      '',
      'median',
    ],
    ...rows.map(({ set, tally: t, outcomes }): [string, ...string[]] => {
      const { grounded, claims } = groundedClaims(outcomes);
      return [
        set,
        String(t.questions),
        counted(t.bothPages, t.questions),
        counted(t.bm25BothPages, t.questions),
        counted(t.answerInReport, t.open),
        counted(t.bm25AnswerInSnippets, t.open),
        counted(t.answerFirst, t.open),
        counted(t.standsAlone, t.opening),
        counted(outcomes.filter((o) => o.state === 'completed').length, outcomes.length),
        counted(grounded, claims),
        median(outcomes.map((o) => o.seconds)).toFixed(1),
      ];
    }),
  ]);
  console.log('');
  for (const { set, tally } of rows) console.log(`  ${set}: ${missedLine(tally)}.`);
  console.log(
    "\n  answer figures leave out yes/no questions; an answer counts when it or one of its aliases (a gold page's " +
      'title among them when it is the answer with words left out and the page writes it in full) occurs as whole ' +
      'words (lower case, punctuation and symbols replaced by spaces, without a/an/the).',
  );
}
