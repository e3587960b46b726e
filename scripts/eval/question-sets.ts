// The question sets of `npm run eval`, all in HotpotQA's schema, and the loopback web each one makes. A set is
// split by a hash of each question's id into a part to tune on and a part to check on (protocol.ts), and its
// world is every paragraph of every question of the whole set, so that a question's figures never depend on
// which other questions are evaluated beside it.
import fs from 'node:fs';
import path from 'node:path';
import type { FakeWebPage } from '../../test/fakes/fake-web';
import { normaliseText, paragraphText, partOf, statesAnswer, type Part } from './protocol';

/** One question in HotpotQA's schema (MuSiQue adds `answer_aliases`). */
export interface QaItem {
  _id: string;
  question: string;
  answer: string;
  answer_aliases?: string[];
  type?: string;
  level?: string;
  /** The gold sentences as [page title, sentence index]. */
  supporting_facts: Array<[string, number]>;
  /** Each paragraph as [page title, its sentences]. */
  context: Array<[string, string[]]>;
}

/** Which questions of a set are evaluated: one part, or the whole set. */
export type SetPart = Part | 'all';

export const SET_PARTS: readonly SetPart[] = ['tune', 'check', 'all'];

/**
 * Every question set, by name: its file (relative to the data directory) and the part evaluated when none is
 * named. The 53 of hotpotqa-dev are a smoke set, never a target: they are evaluated whole.
 */
export const QUESTION_SETS = {
  'hotpotqa-dev': { file: 'qa/hotpotqa-dev/hotpot_dev_distractor.json', defaultPart: 'all' },
  'hotpotqa-dev-large': { file: 'qa/hotpotqa-dev-large/hotpot_dev_distractor.json', defaultPart: 'tune' },
  '2wikimultihopqa-train': { file: 'qa/2wikimultihopqa-train/questions.json', defaultPart: 'tune' },
  'musique-train': { file: 'qa/musique-train/questions.json', defaultPart: 'tune' },
} as const satisfies Record<string, { file: string; defaultPart: SetPart }>;

export type QuestionSetName = keyof typeof QUESTION_SETS;

/** The sets `npm run eval -- multihop` runs, in its order. */
export const MULTIHOP_SETS: readonly QuestionSetName[] = [
  'hotpotqa-dev-large',
  '2wikimultihopqa-train',
  'musique-train',
];

/** The set named `name`; throws naming the sets there are. */
export function questionSet(name: string): { name: QuestionSetName; file: string; defaultPart: SetPart } {
  if (!Object.hasOwn(QUESTION_SETS, name))
    throw new Error(`unknown question set ${name}: one of ${Object.keys(QUESTION_SETS).join(', ')}`);
  const set = QUESTION_SETS[name as QuestionSetName];
  return { name: name as QuestionSetName, file: set.file, defaultPart: set.defaultPart };
}

/** The questions of set `name` in the data directory `dataDir`, in the file's order. */
export function readQuestionSet(dataDir: string, name: string): QaItem[] {
  return JSON.parse(fs.readFileSync(path.join(dataDir, questionSet(name).file), 'utf8')) as QaItem[];
}

/** The items of `part` (all of them for 'all'), in their order; `idOf` gives the id the split hashes. */
export function itemsOfPart<T>(items: readonly T[], part: SetPart, idOf: (item: T) => string): T[] {
  return part === 'all' ? [...items] : items.filter((item) => partOf(idOf(item)) === part);
}

/** Letters an alias has at most to be a code ("IT", "NOR", "U.S"), which counts only in capitals (see answersOf). */
const CODE_LETTERS = 3;

/**
 * The answers that count for a question: its answer and its aliases, an alias of CODE_LETTERS letters or fewer
 * as a code written in capitals (statesAnswer then counts it only so written), and the names gold pages give the
 * answer (pageNames). MuSiQue lists "it" beside "IT" and "Italy", "no" beside "NO" and "Norway": as words they
 * are the pronoun and the "no" of any English report.
 */
export function answersOf(item: QaItem): string[] {
  const aliases = (item.answer_aliases ?? []).map((alias) =>
    alias.replace(/[^\p{L}]/gu, '').length <= CODE_LETTERS ? alias.toUpperCase() : alias,
  );
  return [...new Set([item.answer, ...aliases, ...pageNames(item)])];
}

/**
 * The partial names of the answer the set's own pages give it, as the protocol counts them ("aliases and
 * partial names count when the page itself gives the full form"): the title of a gold page (without what
 * parentheses add) that writes the answer in full in its text, when the title is the answer with words left out
 * (two words at least, the last one kept): the page "Rob Parissi" opens `Robert "Rob" Parissi (born …)`, and its
 * answer "Robert "Rob" Parissi" is stated by "Rob Parissi". A title holding a word the answer does not ("Micky
 * Dolenz" for "George Michael Dolenz") is another name, not a partial one.
 */
export function pageNames(item: Pick<QaItem, 'answer' | 'supporting_facts' | 'context'>): string[] {
  const full = normaliseText(item.answer).split(' ');
  if (full.length < 3) return [];
  const gold = new Set(item.supporting_facts.map(([title]) => title));
  const names: string[] = [];
  for (const [title, sentences] of item.context) {
    if (!gold.has(title) || !statesAnswer(paragraphText(sentences), item.answer)) continue;
    const name = title.replace(/\s*\([^)]*\)\s*/gu, ' ').trim();
    const words = normaliseText(name).split(' ');
    if (words.length < 2 || words.length >= full.length || words.at(-1) !== full.at(-1)) continue;
    let at = 0;
    for (const word of full) if (word === words[at]) at++;
    if (at === words.length) names.push(name);
  }
  return names;
}

/** The gold pages of a question: the distinct titles of its supporting facts, in their order. */
export function goldTitles(item: QaItem): string[] {
  return [...new Set(item.supporting_facts.map(([title]) => title))];
}

/** The path a page titled `title` is served at: its letters and digits in lower case, other runs as '-'. */
export function titlePath(title: string): string {
  return `/${title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '-')}`;
}

/**
 * Every paragraph of `items` as a page, in the order titles first occur: one page per title, its text the
 * paragraph's sentences joined (paragraphText). A title met again with another paragraph (MuSiQue gives
 * different paragraphs of one article to different questions) gets it as a further paragraph of its page,
 * unless the two differ only in whitespace (HotpotQA repeats a paragraph with a no-break space for a space).
 * `hostOf(title, n)` places the n-th page (0-based); two titles with one address on a host get -2, -3, ….
 */
export function qaPages(items: readonly QaItem[], hostOf: (title: string, n: number) => string): FakeWebPage[] {
  const pages: FakeWebPage[] = [];
  const byTitle = new Map<string, { page: FakeWebPage; texts: Set<string> }>();
  const addresses = new Set<string>();
  for (const item of items) {
    for (const [title, sentences] of item.context) {
      const text = paragraphText(sentences);
      const key = text.replace(/\s+/gu, ' ');
      const known = byTitle.get(title);
      if (known) {
        if (!known.texts.has(key)) known.page.paragraphs.push(text);
        known.texts.add(key);
        continue;
      }
      const host = hostOf(title, pages.length);
      let pagePath = titlePath(title);
      for (let n = 2; addresses.has(`${host}${pagePath}`); n++) pagePath = `${titlePath(title)}-${n}`;
      addresses.add(`${host}${pagePath}`);
      const page = { host, path: pagePath, title, paragraphs: [text] };
      pages.push(page);
      byTitle.set(title, { page, texts: new Set([key]) });
    }
  }
  return pages;
}
