// `npm run eval -- hotpot [--set NAME] [--part tune|check|all]`: multi-hop questions of one question set
// (question-sets.ts; default the 53 of qa/hotpotqa-dev, whole). Every paragraph of every question of the set is
// a page on one of 8 loopback hosts (chosen by a hash of its title); a run must fetch every gold page, cite the
// supporting sentences and state the answer. Beside it, one BM25 search of the question itself on the same
// engine.
import {
  RUN_COST_FIGURES,
  counted,
  researchEach,
  printTable,
  runCostRows,
  startEvalWorld,
  type EvalSettings,
  type EvalWorld,
} from './eval-world';
import {
  SENTENCE_RECALL_DEFINITION,
  firstSentence,
  fraction,
  hostOfTitle,
  isYesNo,
  notFoundOpening,
  sentencesCoveredBy,
  standsAlone,
  statesSomeAnswer,
} from './protocol';
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

/** The set `hotpot` evaluates when --set names none: the 53 dev questions, a smoke test. */
export const HOTPOT_DEFAULT_SET = 'hotpotqa-dev';

export const HOTPOT_FIGURES = [
  'questions',
  'both_pages',
  'bm25_both_pages',
  'sentence_recall',
  'answer_in_report',
  'answer_first',
  'first_sentence_stands_alone',
  'bm25_answer_in_snippets',
  'gold_pages_missed',
  'gold_pages_missed_in_results',
  ...RUN_COST_FIGURES,
];

/** A gold page of a question and how far the run got with it. */
export interface GoldPage {
  title: string;
  /** Among the run's sources. */
  fetched: boolean;
  /** Among the hits of some search the run made (fetched or not). */
  inResults: boolean;
}

export interface QaJudgement {
  goldPages: GoldPage[];
  /** Every gold page fetched (both, for HotpotQA). */
  bothPages: boolean;
  supporting: number;
  found: number;
  /** Undefined for a yes/no question. */
  answerInReport: boolean | undefined;
  /** The answer in the summary's first sentence; undefined for a yes/no question. */
  answerFirst: boolean | undefined;
  /** The summary's first sentence stands alone (standsAlone); undefined when the summary opens with no finding. */
  standsAlone: boolean | undefined;
  bm25BothPages: boolean;
  bm25AnswerInSnippets: boolean | undefined;
}

/** The distinct supporting sentences of a question, as [page title, sentence index]. */
function supportingSentences(item: QaItem): Array<[string, number]> {
  const seen = new Set<string>();
  return item.supporting_facts.filter(([title, i]) => {
    const key = `${title}\u0000${i}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Whether a report states the answer, and in its first sentence (undefined for a yes/no question). */
function answerJudgement(
  item: QaItem,
  report: RunOutcome['report'],
): Pick<QaJudgement, 'answerInReport' | 'answerFirst' | 'standsAlone'> {
  const opensWithFinding = report.findings.length > 0 && !notFoundOpening(report.summary);
  const standsAloneJudgement = opensWithFinding ? standsAlone(firstSentence(report.summary)) : undefined;
  if (isYesNo(item.answer))
    return { answerInReport: undefined, answerFirst: undefined, standsAlone: standsAloneJudgement };
  const answers = answersOf(item);
  const reportText = [report.summary, ...report.findings.map((f) => f.text)].join('\n');
  return {
    standsAlone: standsAloneJudgement,
    answerInReport: statesSomeAnswer(reportText, answers),
    answerFirst: statesSomeAnswer(firstSentence(report.summary), answers),
  };
}

async function judge(item: QaItem, run: RunOutcome, world: EvalWorld): Promise<QaJudgement> {
  const titles = goldTitles(item);
  const fetched = new Set(run.sources.flatMap((s) => world.pageOf(s.url)?.title ?? []));
  const listed = new Set(run.searchResults.flatMap((hit) => world.pageOf(hit.url)?.title ?? []));
  const sourceTitle = new Map(run.sources.map((s) => [s.id, world.pageOf(s.url)?.title]));
  const sentencesOf = new Map(item.context.map(([title, sentences]) => [title, sentences]));
  const covered = new Set<string>();
  for (const claim of run.claims) {
    const title = sourceTitle.get(claim.source_id);
    const sentences = title === undefined ? undefined : sentencesOf.get(title);
    if (!sentences) continue;
    for (const i of sentencesCoveredBy(claim.evidence_span, sentences)) covered.add(`${title}\u0000${i}`);
  }
  const supporting = supportingSentences(item);
  const open = !isYesNo(item.answer);
  const answers = answersOf(item);
  const top = await world.searchOnce(item.question);
  const topTitles = new Set(top.map((hit) => hit.page.title));
  return {
    goldPages: titles.map((title) => ({ title, fetched: fetched.has(title), inResults: listed.has(title) })),
    bothPages: titles.every((t) => fetched.has(t)),
    supporting: supporting.length,
    found: supporting.filter(([title, i]) => covered.has(`${title}\u0000${i}`)).length,
    ...answerJudgement(item, run.report),
    bm25BothPages: titles.every((t) => topTitles.has(t)),
    bm25AnswerInSnippets: open ? statesSomeAnswer(top.map((hit) => hit.snippet).join('\n'), answers) : undefined,
  };
}

const yesNo = (value: boolean | undefined) => (value === undefined ? '-' : value ? 'yes' : 'no');

/** The runs of one set's part and their judgements, in the part's order. */
export interface QaSetRuns {
  outcomes: RunOutcome[];
  judgements: QaJudgement[];
}

/**
 * Researches the questions of `part` of set `setName` (the first `settings.limit` of them, in file order) in
 * the world of the whole set, judging, saving and printing each run as it ends.
 */
export async function researchQaSet(settings: EvalSettings, setName: string, part: SetPart): Promise<QaSetRuns> {
  const all = readQuestionSet(settings.dataDir, setName);
  const partItems = itemsOfPart(all, part, (item) => item._id);
  const items = partItems.slice(0, settings.limit);
  // Numbered within the whole part, so that a run saved with --limit has the name it has in the full part.
  const width = String(partItems.length).length;
  const name = (item: QaItem, i: number) => `q${String(i + 1).padStart(width, '0')}-${item._id}`;
  if (settings.replayDir)
    return replaySaved<QaItem, QaJudgement>(settings.replayDir, items, {
      name,
      question: (item) => item.question,
      judge: (item, run) => answerJudgement(item, run.report),
      told: (_item, j) => `answer ${yesNo(j.answerInReport)} (first sentence ${yesNo(j.answerFirst)})`,
    });
  const pages = qaPages(all, hostOfTitle);
  console.log(
    `${setName}, part ${part}: ${items.length} questions; ${pages.length} pages (every question of the set) on ` +
      `8 loopback hosts; depth ${settings.depth}, ${settings.llm.label}, ${settings.concurrency} runs at a time`,
  );
  const world = await startEvalWorld(pages, settings);
  const gold = (list: GoldPage[], pick: (page: GoldPage) => boolean) => `${list.filter(pick).length}/${list.length}`;
  return researchEach(world, settings, items, {
    question: (item) => item.question,
    judge: (item, run) => judge(item, run, world),
    name,
    line: (_item, i, run, judgement) =>
      `q${i + 1} ${run.state} ${run.seconds.toFixed(1)} s, ` +
      `${run.sources.length} sources, ${run.claims.length} claims; gold pages fetched ` +
      `${gold(judgement.goldPages, (p) => p.fetched)} (BM25 ${yesNo(judgement.bm25BothPages)}), ` +
      `sentences ${judgement.found}/${judgement.supporting}, ` +
      `answer ${yesNo(judgement.answerInReport)} (first sentence ${yesNo(judgement.answerFirst)})`,
  });
}

/** What a set's runs come to: each figure as a part of a whole. */
export interface QaTally {
  questions: number;
  /** Questions not answered yes/no: the whole of the answer figures. */
  open: number;
  bothPages: number;
  bm25BothPages: number;
  supporting: number;
  found: number;
  answerInReport: number;
  answerFirst: number;
  /** Summaries opening with a finding, and those whose first sentence stands alone. */
  opening: number;
  standsAlone: number;
  bm25AnswerInSnippets: number;
  goldPages: number;
  goldMissed: number;
  goldMissedInResults: number;
}

/** Counts the judgements and records HOTPOT_FIGURES except the run costs (runCostRows records those). */
export function tallyQa(judgements: readonly QaJudgement[], settings: EvalSettings): QaTally {
  const count = (pick: (j: QaJudgement) => boolean | undefined) => judgements.filter((j) => pick(j)).length;
  const goldPages = judgements.flatMap((j) => j.goldPages);
  const missed = goldPages.filter((p) => !p.fetched);
  const tally: QaTally = {
    questions: judgements.length,
    open: count((j) => j.answerInReport !== undefined),
    bothPages: count((j) => j.bothPages),
    bm25BothPages: count((j) => j.bm25BothPages),
    supporting: judgements.reduce((s, j) => s + j.supporting, 0),
    found: judgements.reduce((s, j) => s + j.found, 0),
    answerInReport: count((j) => j.answerInReport),
    answerFirst: count((j) => j.answerFirst),
    opening: count((j) => j.standsAlone !== undefined),
    standsAlone: count((j) => j.standsAlone),
    bm25AnswerInSnippets: count((j) => j.bm25AnswerInSnippets),
    goldPages: goldPages.length,
    goldMissed: missed.length,
    goldMissedInResults: missed.filter((p) => p.inResults).length,
  };
  const { bench } = settings;
  bench.figure('questions', tally.questions);
  bench.figure('both_pages', fraction(tally.bothPages, tally.questions));
  bench.figure('bm25_both_pages', fraction(tally.bm25BothPages, tally.questions));
  bench.figure('sentence_recall', fraction(tally.found, tally.supporting));
  bench.figure('answer_in_report', fraction(tally.answerInReport, tally.open));
  bench.figure('answer_first', fraction(tally.answerFirst, tally.open));
  bench.figure('first_sentence_stands_alone', fraction(tally.standsAlone, tally.opening));
  bench.figure('bm25_answer_in_snippets', fraction(tally.bm25AnswerInSnippets, tally.open));
  bench.figure('gold_pages_missed', tally.goldMissed);
  bench.figure('gold_pages_missed_in_results', tally.goldMissedInResults);
  return tally;
}

/** "gold pages missed: N, of which in some result list: M" */
export function missedLine(tally: QaTally): string {
  return `gold pages missed: ${tally.goldMissed} of ${tally.goldPages}, of which in some result list: ${tally.goldMissedInResults}`;
}

/** Runs the questions of one set's part through the service and prints the figures beside the one-shot BM25 baseline. */
export async function evaluateHotpot(settings: EvalSettings): Promise<void> {
  const setName = settings.set ?? HOTPOT_DEFAULT_SET;
  const part = settings.part ?? questionSet(setName).defaultPart;
  console.log(`eval hotpot: set ${setName}`);
  const { outcomes, judgements } = await researchQaSet(settings, setName, part);
  const t = tallyQa(judgements, settings);
  console.log('');
  printTable([
    ['', `research runs (${settings.depth})`, 'one-shot BM25: the question, top 10'],
    ['every supporting page fetched', counted(t.bothPages, t.questions), counted(t.bm25BothPages, t.questions)],
    ['supporting-sentence recall', counted(t.found, t.supporting), ''],
    [
      `answer in report (${t.open} non-yes/no questions)`,
      counted(t.answerInReport, t.open),
      `${counted(t.bm25AnswerInSnippets, t.open)} (answer in the 10 snippets)`,
    ],
    ["answer in the summary's first sentence", counted(t.answerFirst, t.open), ''],
    ["summary's first sentence stands alone (of those opening with a finding)", counted(t.standsAlone, t.opening), ''],
    ...runCostRows(outcomes, settings).map(([label, value]): [string, string, string] => [label, value, '']),
  ]);
  console.log(`\n  ${missedLine(t)}.`);
  console.log(`  supporting-sentence recall: ${SENTENCE_RECALL_DEFINITION}.`);
  console.log(
    "  answer in report: the answer or one of its aliases (and a gold page's title that is the answer with words left " +
      'out, when the page writes it in full), lower case, punctuation and symbols replaced by spaces, ' +
      'without the articles a/an/the, occurs as whole words ' +
      "in the report's summary and findings.",
  );
}
