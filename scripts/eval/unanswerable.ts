// `npm run eval -- unanswerable [--set NAME] [--part tune|check|all]`: the multi-hop questions of one set asked in
// its world without the pages that answer them. Every gold page of every question of the set is taken out of
// the set's world (question-sets.ts), so that what is left are the distractors; a question is asked when its
// answer (and every alias) is written on none of the pages left and not in the question itself (yes/no questions
// are left out). No page answers such a question: its report should open with the product's "not found" sentence
// rather than with a finding, and may list the closest statements. This is the honest "not found" of `local`
// measured on hundreds of questions, with the tune/check split of the other sets, so that a rule deciding when
// the sources answer is swept on tune and confirmed on check against the answers it costs in `hotpot`.
import { RUN_COST_FIGURES, counted, printTable, researchEach, runCostRows, startEvalWorld } from './eval-world';
import type { EvalSettings } from './eval-world';
import { answerSearch, fraction, hostOfTitle, isYesNo, notFoundOpening, type NotFoundSentence } from './protocol';
import {
  answersOf,
  goldTitles,
  itemsOfPart,
  qaPages,
  questionSet,
  readQuestionSet,
  type QaItem,
  type SetPart,
} from './question-sets';
import { replaySaved } from './replay';
import type { RunOutcome } from './service-stack';

/** The set `unanswerable` evaluates when --set names none. */
export const UNANSWERABLE_DEFAULT_SET = 'hotpotqa-dev-large';

export const UNANSWERABLE_FIGURES = ['questions', 'left_out', 'not_found_first', 'no_findings', ...RUN_COST_FIGURES];

export interface UnanswerableJudgement {
  completed: boolean;
  findings: number;
  /** The "not found" sentence the summary opens with, if any (report-text.ts). */
  notFound: NotFoundSentence | null;
}

/**
 * The pages of the whole set but the gold pages of every one of its questions, and the questions of `part` that
 * they do not answer: not yes/no, and no answer of the question's (answersOf) written in the question or on a
 * page left (title or text). Also how many of the part's open questions were left out because a page left, or the
 * question, writes the answer.
 */
export function unanswerableWorld(all: readonly QaItem[], part: SetPart) {
  const gold = new Set(all.flatMap(goldTitles));
  const pages = qaPages(all, hostOfTitle).filter((page) => !gold.has(page.title));
  const onPages = answerSearch(pages.map((page) => `${page.title}\n${page.paragraphs.join('\n')}`).join('\n'));
  const open = itemsOfPart(all, part, (item) => item._id).filter((item) => !isYesNo(item.answer));
  const items = open.filter((item) => {
    const inQuestion = answerSearch(item.question);
    return answersOf(item).every((answer) => !onPages(answer) && !inQuestion(answer));
  });
  return { pages, items, leftOut: open.length - items.length };
}

function judgementOf(run: RunOutcome): UnanswerableJudgement {
  return {
    completed: run.state === 'completed',
    findings: run.report.findings.length,
    notFound: notFoundOpening(run.report.summary),
  };
}

const told = (j: UnanswerableJudgement) => `${j.findings} findings, ${j.notFound ?? 'a finding'} first`;

/** Runs the part's unanswerable questions of the set (default: tune of hotpotqa-dev-large) and prints the figures. */
export async function evaluateUnanswerable(settings: EvalSettings): Promise<void> {
  const setName = settings.set ?? UNANSWERABLE_DEFAULT_SET;
  const part = settings.part ?? questionSet(setName).defaultPart;
  const all = readQuestionSet(settings.dataDir, setName);
  const world = unanswerableWorld(all, part);
  const items = world.items.slice(0, settings.limit);
  const width = String(world.items.length).length;
  const name = (item: QaItem, i: number) => `u${String(i + 1).padStart(width, '0')}-${item._id}`;
  let runs: { outcomes: RunOutcome[]; judgements: UnanswerableJudgement[] };
  if (settings.replayDir) {
    runs = await replaySaved<QaItem, UnanswerableJudgement>(settings.replayDir, items, {
      name,
      question: (item) => item.question,
      judge: (_item, run) => judgementOf(run),
      told: (_item, j) => told(j),
    });
  } else {
    console.log(
      `eval unanswerable: set ${setName}, part ${part}: ${items.length} questions (${world.leftOut} open questions ` +
        `left out: a page left or the question writes the answer); ${world.pages.length} pages (the set's ` +
        `without any question's gold pages) on 8 loopback hosts; depth ${settings.depth}, ${settings.llm.label}, ` +
        `${settings.concurrency} runs at a time`,
    );
    const web = await startEvalWorld(world.pages, settings);
    runs = await researchEach(web, settings, items, {
      question: (item) => item.question,
      judge: async (_item, run) => judgementOf(run),
      name,
      line: (_item, i, run, j) =>
        `u${i + 1} ${run.state} ${run.seconds.toFixed(1)} s, ${run.sources.length} sources, ` +
        `${run.claims.length} claims, ${told(j)}`,
    });
  }
  const { outcomes, judgements } = runs;
  // A failed run lists no findings either: only a completed run's silence is an honest "not found".
  const count = (pick: (j: UnanswerableJudgement) => boolean) =>
    judgements.filter((j) => j.completed && pick(j)).length;
  const notFound = count((j) => j.notFound !== null);
  const none = count((j) => j.findings === 0);
  const { bench } = settings;
  bench.figure('questions', judgements.length);
  bench.figure('left_out', world.leftOut);
  bench.figure('not_found_first', fraction(notFound, judgements.length));
  bench.figure('no_findings', fraction(none, judgements.length));
  console.log('');
  printTable([
    ['', `${setName}, part ${part}, ${settings.depth}: no page answers`],
    ['summary opens with a "not found" sentence', counted(notFound, judgements.length)],
    ...(['answer_not_found', 'not_answered', 'no_findings'] as const).map((kind): [string, string] => [
      `  ${kind}`,
      counted(
        count((j) => j.notFound === kind),
        judgements.length,
      ),
    ]),
    ['report lists no findings', counted(none, judgements.length)],
    ...runCostRows(outcomes, settings),
  ]);
  console.log(
    `\n  asked: the part's open questions whose answer and aliases are written neither in the question nor on any ` +
      `page left (lower case, punctuation and symbols replaced by spaces, without a/an/the, as whole words); ` +
      `${world.leftOut} left out.`,
  );
}
