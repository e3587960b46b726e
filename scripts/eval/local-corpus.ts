// The questions and pages of `npm run eval -- local`: the 130 pages of Mozilla Readability's test set in the data
// directory, copied into a corpus folder as `<page>.html`, and the questions of local-questions.json (written by
// hand; its `about` says how) about them: `answered` ones that one page answers, `unanswered` ones that none does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { localUrlPath } from '@research/search';

/** The Readability test pages, a folder per page (relative to the data directory). */
export const READABILITY_PAGES = 'pages/readability/test/test-pages';
export const LOCAL_NEEDS = [READABILITY_PAGES];
/** The questions, committed beside this file (the pages stay outside the repository). */
export const LOCAL_QUESTIONS_FILE = path.join(__dirname, 'local-questions.json');

/** A question one page answers: `answer` as that page's extracted article writes it, `aliases` other spellings. */
export interface AnsweredQuestion {
  page: string;
  question: string;
  answer: string;
  aliases?: string[];
}

/** A question no page answers: its answer from general knowledge and the key words of it that no page holds. */
export interface UnansweredQuestion {
  question: string;
  answer: string;
  absent: string[];
}

export interface LocalQuestions {
  about: string[];
  answered: AnsweredQuestion[];
  unanswered: UnansweredQuestion[];
}

/** The questions of local-questions.json, in the file's order. */
export function readLocalQuestions(file = LOCAL_QUESTIONS_FILE): LocalQuestions {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as LocalQuestions;
}

/** The names of the test set's pages (a folder holding a source.html each), sorted. */
export function readabilityPageNames(dataDir: string): string[] {
  const dir = path.join(dataDir, READABILITY_PAGES);
  return fs
    .readdirSync(dir)
    .filter((name) => fs.existsSync(path.join(dir, name, 'source.html')))
    .sort();
}

/** The source.html of page `name`. */
export function pageSourceFile(dataDir: string, name: string): string {
  return path.join(dataDir, READABILITY_PAGES, name, 'source.html');
}

/** A new temporary folder holding every page's source.html as `<page>.html`, as a user would drop them in. */
export function copyCorpus(dataDir: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'research-eval-corpus-'));
  for (const name of readabilityPageNames(dataDir))
    fs.copyFileSync(pageSourceFile(dataDir, name), path.join(dir, `${name}.html`));
  return dir;
}

/** The page a `local:` URL of the corpus names (`local:ars-1.html` → `ars-1`), or undefined for any other URL. */
export function pageOfLocalUrl(url: string): string | undefined {
  const file = localUrlPath(url);
  return file?.endsWith('.html') ? file.slice(0, -'.html'.length) : undefined;
}

/** A question of either kind with its place among the questions of its kind (0-based). */
export type LocalItem =
  { kind: 'answered'; n: number; q: AnsweredQuestion } | { kind: 'unanswered'; n: number; q: UnansweredQuestion };

/** The first `limit` questions of each kind (all without a limit), answered ones first. */
export function localItems(questions: LocalQuestions, limit?: number): LocalItem[] {
  return [
    ...questions.answered.slice(0, limit).map((q, n) => ({ kind: 'answered' as const, n, q })),
    ...questions.unanswered.slice(0, limit).map((q, n) => ({ kind: 'unanswered' as const, n, q })),
  ];
}
