// `npm run eval -- local`: the service over a folder of real web pages, as a user runs it on their own documents
// (SEARCH_PROVIDER=local): the 130 pages of Mozilla Readability's test set, each page's source.html copied into a
// temporary corpus folder as <page>.html. The questions (local-questions.json, written by hand) are of two kinds:
// `answered`, each answered by one page's article, whose run should cite that page and state the answer, first;
// and `unanswered`, which no page answers, whose report should list no findings and say so in its first
// sentence. Beside the runs, each answered question searched once with the product's local provider over the
// same folder.
import fs from 'node:fs';
import { createSilentLogger } from '@research/observability';
import { createLocalProvider, type LocalSearchProvider } from '@research/search';
import {
  RUN_COST_FIGURES,
  counted,
  printTable,
  researchEach,
  runCostRows,
  startEvalStack,
  type EvalSettings,
  type ServiceWorld,
} from './eval-world';
import {
  READABILITY_PAGES,
  copyCorpus,
  localItems,
  pageOfLocalUrl,
  readLocalQuestions,
  type AnsweredQuestion,
  type LocalItem,
} from './local-corpus';
import {
  firstSentence,
  fraction,
  notFoundOpening,
  standsAlone,
  statesSomeAnswer,
  type NotFoundSentence,
} from './protocol';
import { replaySaved } from './replay';
import type { RunOutcome } from './service-stack';

export const LOCAL_FIGURES = [
  'answered_questions',
  'unanswered_questions',
  'page_cited',
  'page_read',
  'answer_in_report',
  'answer_first',
  'answered_said_not_found',
  'first_sentence_stands_alone',
  'findings_per_run',
  'unrelated_findings_per_run',
  'search_page_top10',
  'search_answer_in_snippets',
  'no_findings',
  'not_found_first',
  ...RUN_COST_FIGURES,
];

export interface LocalJudgement {
  kind: LocalItem['kind'];
  completed: boolean;
  findings: number;
  /** The "not found" sentence the summary opens with, if any (report-text.ts). */
  notFound: NotFoundSentence | null;
  /** The summary opens with a finding whose first sentence stands alone (null: it opens with "not found" or nothing). */
  standsAlone: boolean | null;
  /**
   * Answered questions: findings none of whose sources is the answering page or a page on its topic (whose title
   * shares a content word with the question: unrelatedPage).
   */
  unrelated?: number;
  /** Answered questions only (undefined for the others): the page among the sources a finding cites. */
  pageCited?: boolean;
  /** The page among the run's sources, cited or not. */
  pageRead?: boolean;
  answerInReport?: boolean;
  answerFirst?: boolean;
  /** The page among the top 10 of one local search of the question; the answer in their snippets. */
  searchPage?: boolean;
  searchAnswer?: boolean;
}

interface LocalWorld extends ServiceWorld {
  /** One search of the question with the product's local provider over the corpus: the top 10. */
  searchOnce(query: string): Promise<Array<{ page: string | undefined; snippet: string }>>;
}

/** Starts the service on the corpus folder (SEARCH_PROVIDER=local) and a local provider of its own for the baseline. */
async function startLocalWorld(corpusDir: string, settings: EvalSettings): Promise<LocalWorld> {
  const provider: LocalSearchProvider = createLocalProvider({
    corpusDir,
    logger: createSilentLogger(),
    watch: false,
    pollIntervalMs: 0,
  });
  const removeCorpus = () => fs.rmSync(corpusDir, { recursive: true, force: true });
  try {
    await provider.whenReady();
    const stack = await startEvalStack(settings, { SEARCH_PROVIDER: 'local', LOCAL_CORPUS_DIR: corpusDir });
    return {
      stack,
      async searchOnce(query) {
        const hits = await provider.search(query, { language: 'en', limit: 10 });
        return hits.map((hit) => ({ page: pageOfLocalUrl(hit.url), snippet: hit.snippet }));
      },
      async close() {
        await stack.stop();
        await provider.close();
        removeCorpus();
      },
    };
  } catch (error) {
    await provider.close();
    removeCorpus();
    throw error;
  }
}

async function judge(item: LocalItem, run: RunOutcome, world: LocalWorld): Promise<LocalJudgement> {
  const judgement = reportJudgement(item, run);
  if (item.kind === 'unanswered') return judgement;
  const { page } = item.q;
  const top = await world.searchOnce(item.q.question);
  return {
    ...judgement,
    pageRead: run.sources.some((s) => pageOfLocalUrl(s.url) === page),
    searchPage: top.some((hit) => hit.page === page),
    searchAnswer: statesSomeAnswer(top.map((hit) => hit.snippet).join('\n'), localAnswers(item.q)),
  };
}

const localAnswers = (q: AnsweredQuestion) => [q.answer, ...(q.aliases ?? [])];

/** Words of four letters or more, lower case: what a page's title shares with a question on its topic. */
const titleWords = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]{4,}/gu) ?? []);

/**
 * Whether a source is on another topic than the question: not its answering page, and a title that shares no word
 * of four letters or more with it ("Facebook" joins the pages on Facebook's deals; a page on tarot cards shares
 * nothing with a question on neon lights). The 130 pages are on as many topics, most of them one each.
 */
function unrelatedPage(source: { url: string; title: string | null }, q: AnsweredQuestion): boolean {
  if (pageOfLocalUrl(source.url) === q.page) return false;
  const asked = titleWords(q.question);
  return ![...titleWords(source.title ?? '')].some((w) => asked.has(w));
}

/** What the report says of the question (the findings, the "not found" opening, the page cited, the answer). */
function reportJudgement(item: LocalItem, run: RunOutcome): LocalJudgement {
  const { report } = run;
  const common = {
    kind: item.kind,
    completed: run.state === 'completed',
    findings: report.findings.length,
    notFound: notFoundOpening(report.summary),
    standsAlone:
      report.findings.length > 0 && !notFoundOpening(report.summary)
        ? standsAlone(firstSentence(report.summary))
        : null,
  };
  if (item.kind === 'unanswered') return common;
  const answers = localAnswers(item.q);
  const pageOfSource = new Map(run.sources.map((s) => [s.id, pageOfLocalUrl(s.url)]));
  const cited = new Set(report.findings.flatMap((f) => f.source_ids.map((id) => pageOfSource.get(id))));
  return {
    ...common,
    pageCited: cited.has(item.q.page),
    unrelated: report.findings.filter((f) =>
      f.source_ids.every((id) => {
        const source = run.sources.find((s) => s.id === id);
        return !source || unrelatedPage(source, item.q);
      }),
    ).length,
    answerInReport: statesSomeAnswer([report.summary, ...report.findings.map((f) => f.text)].join('\n'), answers),
    answerFirst: statesSomeAnswer(firstSentence(report.summary), answers),
  };
}

const yesNo = (value: boolean | undefined) => (value ? 'yes' : 'no');

/** `a07-ars-1`, `u03`: the kind, the place among its kind (as in the whole file), the answering page. */
function itemName(item: LocalItem): string {
  const n = String(item.n + 1).padStart(2, '0');
  return item.kind === 'answered' ? `a${n}-${item.q.page}` : `u${n}`;
}

function runLine(item: LocalItem, run: RunOutcome, j: LocalJudgement): string {
  const head =
    `${itemName(item)} ${run.state} ${run.seconds.toFixed(1)} s, ` +
    `${run.sources.length} sources, ${run.claims.length} claims, ${j.findings} findings`;
  if (item.kind === 'unanswered') return `${head}; summary opens with ${j.notFound ?? 'a finding'}`;
  return (
    `${head}; page cited ${yesNo(j.pageCited)} (read ${yesNo(j.pageRead)}, local search top 10 ${yesNo(j.searchPage)}), ` +
    `answer ${yesNo(j.answerInReport)} (first sentence ${yesNo(j.answerFirst)})` +
    (j.notFound ? `; summary opens with ${j.notFound}` : '')
  );
}

/** Runs every question through the service on the corpus folder and prints the figures of both kinds. */
export async function evaluateLocal(settings: EvalSettings): Promise<void> {
  const items = localItems(readLocalQuestions(), settings.limit);
  if (settings.replayDir) {
    // What the runs read and the one local search stay the saved figures.
    const { outcomes, judgements } = await replaySaved<LocalItem, LocalJudgement>(settings.replayDir, items, {
      name: itemName,
      question: (item) => item.q.question,
      judge: reportJudgement,
      told: (item, j) =>
        `${j.findings} findings, ${j.notFound ?? 'a finding'} first` +
        (item.kind === 'answered' ? `, answer ${yesNo(j.answerInReport)} (first ${yesNo(j.answerFirst)})` : ''),
    });
    report(judgements, outcomes, settings);
    return;
  }
  const corpusDir = copyCorpus(settings.dataDir);
  const answeredCount = items.filter((item) => item.kind === 'answered').length;
  console.log(
    `eval local: ${answeredCount} answered and ${items.length - answeredCount} unanswered questions; ` +
      `${fs.readdirSync(corpusDir).length} pages (${READABILITY_PAGES}) in a local corpus folder; ` +
      `depth ${settings.depth}, ${settings.llm.label}, ${settings.concurrency} runs at a time`,
  );
  const world = await startLocalWorld(corpusDir, settings);
  const { outcomes, judgements } = await researchEach(world, settings, items, {
    question: (item) => item.q.question,
    judge: (item, run) => judge(item, run, world),
    name: itemName,
    line: (item, _i, run, judgement) => runLine(item, run, judgement),
  });
  report(judgements, outcomes, settings);
}

function report(judgements: LocalJudgement[], outcomes: RunOutcome[], settings: EvalSettings): void {
  const answered = judgements.filter((j) => j.kind === 'answered');
  const unanswered = judgements.filter((j) => j.kind === 'unanswered');
  const count = (list: LocalJudgement[], pick: (j: LocalJudgement) => boolean | undefined) =>
    list.filter((j) => pick(j)).length;
  const a = (pick: (j: LocalJudgement) => boolean | undefined) => count(answered, pick);
  // A failed run lists no findings either: only a completed run's silence is an honest "not found".
  const u = (pick: (j: LocalJudgement) => boolean | undefined) => count(unanswered, (j) => j.completed && pick(j));
  const { bench } = settings;
  bench.figure('answered_questions', answered.length);
  bench.figure('unanswered_questions', unanswered.length);
  bench.figure(
    'page_cited',
    fraction(
      a((j) => j.pageCited),
      answered.length,
    ),
  );
  bench.figure(
    'page_read',
    fraction(
      a((j) => j.pageRead),
      answered.length,
    ),
  );
  bench.figure(
    'answer_in_report',
    fraction(
      a((j) => j.answerInReport),
      answered.length,
    ),
  );
  bench.figure(
    'answer_first',
    fraction(
      a((j) => j.answerFirst),
      answered.length,
    ),
  );
  bench.figure(
    'answered_said_not_found',
    fraction(
      a((j) => j.notFound !== null),
      answered.length,
    ),
  );
  bench.figure(
    'search_page_top10',
    fraction(
      a((j) => j.searchPage),
      answered.length,
    ),
  );
  bench.figure(
    'search_answer_in_snippets',
    fraction(
      a((j) => j.searchAnswer),
      answered.length,
    ),
  );
  bench.figure(
    'no_findings',
    fraction(
      u((j) => j.findings === 0),
      unanswered.length,
    ),
  );
  bench.figure(
    'not_found_first',
    fraction(
      u((j) => j.notFound !== null),
      unanswered.length,
    ),
  );
  const opening = judgements.filter((j) => j.standsAlone !== null);
  bench.figure(
    'first_sentence_stands_alone',
    fraction(
      count(opening, (j) => j.standsAlone === true),
      opening.length,
    ),
  );
  const perRun = (list: LocalJudgement[], pick: (j: LocalJudgement) => number) =>
    Number((list.reduce((n, j) => n + pick(j), 0) / Math.max(1, list.length)).toFixed(2));
  bench.figure(
    'findings_per_run',
    perRun(answered, (j) => j.findings),
  );
  bench.figure(
    'unrelated_findings_per_run',
    perRun(answered, (j) => j.unrelated ?? 0),
  );
  const opens = (kind: NotFoundSentence) => (j: LocalJudgement) => j.notFound === kind;
  const both = (pick: (j: LocalJudgement) => boolean | undefined): [string, string] => [
    counted(a(pick), answered.length),
    counted(u(pick), unanswered.length),
  ];
  console.log('');
  printTable([
    ['', `answered (one page answers)`, 'unanswered (no page does)', 'one-shot local search: the question, top 10'],
    [
      'answering page cited by a finding',
      counted(
        a((j) => j.pageCited),
        answered.length,
      ),
      '',
      `${counted(
        a((j) => j.searchPage),
        answered.length,
      )} (page among the 10 hits)`,
    ],
    [
      'answering page among the sources read',
      counted(
        a((j) => j.pageRead),
        answered.length,
      ),
      '',
      '',
    ],
    [
      'answer in report (summary and findings)',
      counted(
        a((j) => j.answerInReport),
        answered.length,
      ),
      '',
      `${counted(
        a((j) => j.searchAnswer),
        answered.length,
      )} (answer in the 10 snippets)`,
    ],
    [
      "answer in the summary's first sentence",
      counted(
        a((j) => j.answerFirst),
        answered.length,
      ),
      '',
      '',
    ],
    [
      "summary's first sentence stands alone",
      ...[answered, unanswered].map((list) => {
        const opened = list.filter((j) => j.standsAlone !== null);
        return `${counted(
          count(opened, (j) => j.standsAlone === true),
          opened.length,
        )} opening with a finding`;
      }),
      '',
    ],
    [
      'findings per run (from pages on other topics)',
      `${perRun(answered, (j) => j.findings)} (${perRun(answered, (j) => j.unrelated ?? 0)})`,
      '',
      '',
    ],
    ['report lists no findings', ...both((j) => j.findings === 0), ''],
    ['summary opens with a "not found" sentence', ...both((j) => j.notFound !== null), ''],
    ['  "the sources read do not answer" (notAnswered)', ...both(opens('not_answered')), ''],
    ['  "no sourced statements" (noFindings)', ...both(opens('no_findings')), ''],
    ['  "none states it; the closest follow" (answerNotFound)', ...both(opens('answer_not_found')), ''],
  ]);
  console.log('');
  printTable(runCostRows(outcomes, settings));
  console.log(
    '\n  unanswered: a run counts as not found only when it completed. The answer counts when it or an alias ' +
      'occurs as whole words (lower case, punctuation and symbols replaced by spaces, without a/an/the); the ' +
      'first sentence ends at the first citation\'s "]." (protocol.ts).',
  );
}
