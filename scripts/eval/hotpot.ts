// `npm run eval -- hotpot`: multi-hop questions of HotpotQA (qa/hotpotqa-dev). Every paragraph of the
// evaluated questions is a page on one of 8 loopback hosts (chosen by a hash of its title); a run must find
// both supporting pages, cite the supporting sentences and state the answer. Beside it, one BM25 search of the
// question itself on the same engine.
import { HOTPOT_FILE, hotpotItems, hotpotPages, type HotpotItem } from '../../test/engine/engine-support';
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
  fraction,
  hostOfTitle,
  isYesNo,
  sentencesCoveredBy,
  statesAnswer,
} from './protocol';
import type { RunOutcome } from './service-stack';

export const HOTPOT_NEEDS = [HOTPOT_FILE];

export const HOTPOT_FIGURES = [
  'questions',
  'both_pages',
  'bm25_both_pages',
  'sentence_recall',
  'answer_in_report',
  'answer_first',
  'bm25_answer_in_snippets',
  ...RUN_COST_FIGURES,
];

interface HotpotJudgement {
  bothPages: boolean;
  supporting: number;
  found: number;
  /** Undefined for a yes/no question. */
  answerInReport: boolean | undefined;
  /** The answer in the summary's first sentence; undefined for a yes/no question. */
  answerFirst: boolean | undefined;
  bm25BothPages: boolean;
  bm25AnswerInSnippets: boolean | undefined;
}

/** The distinct supporting sentences of a question, as [page title, sentence index]. */
function supportingSentences(item: HotpotItem): Array<[string, number]> {
  const seen = new Set<string>();
  return item.supporting_facts.filter(([title, i]) => {
    const key = `${title}\u0000${i}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function judge(item: HotpotItem, run: RunOutcome, world: EvalWorld): Promise<HotpotJudgement> {
  const titles = [...new Set(item.supporting_facts.map(([title]) => title))];
  const fetched = new Set(run.sources.flatMap((s) => world.pageOf(s.url)?.title ?? []));
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
  const reportText = [run.report.summary, ...run.report.findings.map((f) => f.text)].join('\n');
  const top = await world.searchOnce(item.question);
  const topTitles = new Set(top.map((hit) => hit.page.title));
  return {
    bothPages: titles.every((t) => fetched.has(t)),
    supporting: supporting.length,
    found: supporting.filter(([title, i]) => covered.has(`${title}\u0000${i}`)).length,
    answerInReport: open ? statesAnswer(reportText, item.answer) : undefined,
    answerFirst: open ? statesAnswer(firstSentence(run.report.summary), item.answer) : undefined,
    bm25BothPages: titles.every((t) => topTitles.has(t)),
    bm25AnswerInSnippets: open ? statesAnswer(top.map((hit) => hit.snippet).join('\n'), item.answer) : undefined,
  };
}

/** The summary's first sentence: up to its first citation's closing "]." (the report cites every sentence). */
function firstSentence(summary: string): string {
  const end = summary.search(/\]\.(\s|$)/u);
  return end < 0 ? summary : summary.slice(0, end + 2);
}

const yesNo = (value: boolean | undefined) => (value === undefined ? '-' : value ? 'yes' : 'no');

/** Runs every question through the service and prints the figures beside the one-shot BM25 baseline. */
export async function evaluateHotpot(settings: EvalSettings): Promise<void> {
  const items = hotpotItems(settings.dataDir).slice(0, settings.limit);
  const pages = hotpotPages(items).map((page) => ({ ...page, host: hostOfTitle(page.title) }));
  console.log(
    `eval hotpot: ${items.length} questions, ${pages.length} pages on 8 loopback hosts, depth ${settings.depth}, ` +
      `${settings.llm.label}, ${settings.concurrency} runs at a time`,
  );
  const world = await startEvalWorld(pages, settings);
  const { outcomes, judgements } = await researchEach(world, settings, items, {
    question: (item) => item.question,
    judge: (item, run) => judge(item, run, world),
    name: (_item, i) => `hotpot-${String(i + 1).padStart(2, '0')}`,
    line: (_item, i, run, judgement) =>
      `q${i + 1} ${run.state} ${run.seconds.toFixed(1)} s, ` +
      `${run.sources.length} sources, ${run.claims.length} claims; both pages ${yesNo(judgement.bothPages)} ` +
      `(BM25 ${yesNo(judgement.bm25BothPages)}), sentences ${judgement.found}/${judgement.supporting}, ` +
      `answer ${yesNo(judgement.answerInReport)} (first sentence ${yesNo(judgement.answerFirst)})`,
  });
  report(judgements, outcomes, settings);
}

function report(judgements: HotpotJudgement[], outcomes: RunOutcome[], settings: EvalSettings): void {
  const { bench } = settings;
  const n = judgements.length;
  const count = (pick: (j: HotpotJudgement) => boolean | undefined) => judgements.filter((j) => pick(j)).length;
  const open = judgements.filter((j) => j.answerInReport !== undefined).length;
  const supporting = judgements.reduce((s, j) => s + j.supporting, 0);
  const found = judgements.reduce((s, j) => s + j.found, 0);
  bench.figure('questions', n);
  bench.figure(
    'both_pages',
    fraction(
      count((j) => j.bothPages),
      n,
    ),
  );
  bench.figure(
    'bm25_both_pages',
    fraction(
      count((j) => j.bm25BothPages),
      n,
    ),
  );
  bench.figure('sentence_recall', fraction(found, supporting));
  bench.figure(
    'answer_in_report',
    fraction(
      count((j) => j.answerInReport),
      open,
    ),
  );
  bench.figure(
    'answer_first',
    fraction(
      count((j) => j.answerFirst),
      open,
    ),
  );
  bench.figure(
    'bm25_answer_in_snippets',
    fraction(
      count((j) => j.bm25AnswerInSnippets),
      open,
    ),
  );
  console.log('');
  printTable([
    ['', `research runs (${settings.depth})`, 'one-shot BM25: the question, top 10'],
    [
      'both supporting pages fetched',
      counted(
        count((j) => j.bothPages),
        n,
      ),
      counted(
        count((j) => j.bm25BothPages),
        n,
      ),
    ],
    ['supporting-sentence recall', counted(found, supporting), ''],
    [
      `answer in report (${open} non-yes/no questions)`,
      counted(
        count((j) => j.answerInReport),
        open,
      ),
      `${counted(
        count((j) => j.bm25AnswerInSnippets),
        open,
      )} (answer in the 10 snippets)`,
    ],
    [
      "answer in the summary's first sentence",
      counted(
        count((j) => j.answerFirst),
        open,
      ),
      '',
    ],
    ...runCostRows(outcomes, settings).map(([label, value]): [string, string, string] => [label, value, '']),
  ]);
  console.log(`\n  supporting-sentence recall: ${SENTENCE_RECALL_DEFINITION}.`);
  console.log(
    '  answer in report: the answer, lower case, punctuation and symbols replaced by spaces, without the articles ' +
      'a/an/the, occurs as whole words ' +
      "in the report's summary and findings.",
  );
}
