// The measuring rules of `npm run eval`, as pure functions: where a page lives, when an answer counts as
// stated, when a claim's evidence span counts as covering a supporting sentence. Issue 12 fixes them so that
// figures measured by different people compare.
import crypto from 'node:crypto';
import { reportText } from '@research/engine';

/** How many loopback hosts the evaluated pages are spread over (127.0.0.1 … 127.0.0.8). */
export const LOOPBACK_HOSTS = 8;

/** The loopback host of host number `n` (0-based, taken modulo LOOPBACK_HOSTS). */
export function loopbackHost(n: number): string {
  return `127.0.0.${1 + (((n % LOOPBACK_HOSTS) + LOOPBACK_HOSTS) % LOOPBACK_HOSTS)}`;
}

/** A stable number for a text (the first 32 bits of its SHA-256): the same page lands on the same host in every run. */
export function stableHash(text: string): number {
  return crypto.createHash('sha256').update(text).digest().readUInt32BE(0);
}

/** The host a page titled `title` is served on: one of LOOPBACK_HOSTS, chosen by a hash of the title. */
export function hostOfTitle(title: string): string {
  return loopbackHost(stableHash(title));
}

/** The two parts of every evaluated set: `tune` to develop on, `check` to confirm a change on. */
export type Part = 'tune' | 'check';

/**
 * The part an item belongs to, by a hash of its id alone: one item in three (hash % 3 === 0) is `check`. An
 * item keeps its part whatever else the set holds, and whichever order it comes in.
 */
export function partOf(id: string): Part {
  return stableHash(id) % 3 === 0 ? 'check' : 'tune';
}

/**
 * A paragraph's text from its sentences. HotpotQA's sentences carry the space before them, and its splitter
 * also cuts inside quotations and titles (`"Live ?!` + `*@ Like a Suicide"`), where no space belongs: a
 * paragraph in which some sentence after the first begins with whitespace is joined as given. Otherwise
 * (2WikiMultihopQA's sentences carry no spaces) a space goes between two sentences where neither side has
 * whitespace. The result is trimmed.
 */
export function paragraphText(sentences: readonly string[]): string {
  const carriesSpaces = sentences.slice(1).some((sentence) => /^\s/u.test(sentence));
  let text = '';
  for (const sentence of sentences) {
    const apart = !carriesSpaces && text !== '' && !/\s$/u.test(text) && sentence !== '' && !/^\s/u.test(sentence);
    text += apart ? ` ${sentence}` : sentence;
  }
  return text.trim();
}

/**
 * An answer or a text as compared: lower case, every punctuation mark or symbol replaced by a space, the
 * articles a, an and the dropped, words separated by single spaces. (Replacing rather than deleting keeps
 * "Paris[1]" two words; both sides are treated alike, so "U.S." still meets "U.S.".) With `keepCase`, the
 * letters keep their case (see statesAnswer).
 */
export function normaliseText(text: string, keepCase = false): string {
  return (keepCase ? text : text.toLowerCase())
    .replace(/[\p{P}\p{S}]+/gu, ' ')
    .split(/\s+/u)
    .filter((w) => w && !['a', 'an', 'the'].includes(w.toLowerCase()))
    .join(' ');
}

/**
 * True when the normalised `answer` occurs in the normalised `text` as whole words. An answer written in capitals
 * only (an abbreviation or a code: "US", "IT", "NO", "U.S.") counts only written in capitals: MuSiQue gives "IT"
 * and "it" as aliases of Italy and "NO" of Norway, which lower-cased meet the pronoun "it", the word "no", "us" in
 * any English report.
 */
export function statesAnswer(text: string, answer: string): boolean {
  return answerSearch(text)(answer);
}

/**
 * statesAnswer for one `text` and many answers: the text is normalised once (lower-cased, and with its case kept
 * the first time an answer in capitals is looked for), so that a set's whole world is searched in one pass each.
 */
export function answerSearch(text: string): (answer: string) => boolean {
  const normalised: Partial<Record<'lower' | 'cased', string>> = {};
  return (answer) => {
    const letters = answer.replace(/[^\p{L}]/gu, '');
    const capitals = letters.length > 1 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
    const wanted = normaliseText(answer, capitals);
    const key = capitals ? 'cased' : 'lower';
    normalised[key] ??= ` ${normaliseText(text, capitals)} `;
    return wanted.length > 0 && normalised[key].includes(` ${wanted} `);
  };
}

/** True when the text states one of `answers` (an answer and its aliases), as statesAnswer judges. */
export function statesSomeAnswer(text: string, answers: readonly string[]): boolean {
  return answers.some(answerSearch(text));
}

/**
 * The summary's first sentence: the report's own "not found" sentence when the summary opens with one (it cites
 * nothing), else up to its first citation's closing "]." (the report cites every other sentence).
 */
export function firstSentence(summary: string, language = 'en'): string {
  const opening = notFoundOpening(summary, language);
  if (opening) {
    const text = reportText(language);
    const end = opening === 'answer_not_found' ? text.answerNotFound.length : summary.search(/\.(\s|$)/u) + 1;
    return summary.slice(0, end);
  }
  const end = summary.search(/\]\.(\s|$)/u);
  return end < 0 ? summary : summary.slice(0, end + 2);
}

/**
 * The words a sentence read alone cannot open with: it leans on a sentence the reader has not seen. Third-person
 * and demonstrative pronouns, coordinating conjunctions, and the conjunctive adverbs and discourse markers of an
 * English grammar's lists ("However", "Now", "Actually"), with "the opposite" and its kin. The evaluation's own list,
 * written from a grammar, not from the report's rule (packages/engine/src/text/language.ts), and broader than it.
 */
const LEANING_OPENING = new RegExp(
  '^\\W*(?:' +
    [
      'he|she|it|they|him|her|them|his|hers|its|their|theirs|this|that|these|those|such',
      'and|but|or|nor|so|yet',
      'accordingly|additionally|also|anyway|besides|certainly|consequently|finally|further|furthermore|hence|however',
      'indeed|instead|likewise|meanwhile|moreover|nevertheless|next|nonetheless|now|otherwise|similarly|still',
      'subsequently|then|thereafter|therefore|thus|actually|well|again|both',
      'the (?:opposite|same|latter|former|reverse|other)',
    ].join('|') +
    ')\\b',
  'iu',
);

/** Whether the summary's first sentence (firstSentence) stands alone: it opens with no word leaning on another. */
export function standsAlone(sentence: string): boolean {
  return !LEANING_OPENING.test(sentence);
}

/** The report's fixed sentences that say the sources read do not answer the question (report-text.ts). */
export type NotFoundSentence = 'not_answered' | 'no_findings' | 'answer_not_found';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * Which "not found" sentence of the report (the product's own wording in `language`) the summary opens with:
 * `notAnswered` (sources were read, none of their statements is about the question; any number of sources),
 * `noFindings` (nothing was read) or `answerNotFound` (no statement gives the fact asked; the closest follow as
 * findings). Null when the summary opens with anything else.
 */
export function notFoundOpening(summary: string, language = 'en'): NotFoundSentence | null {
  const text = reportText(language);
  if (summary.startsWith(text.answerNotFound)) return 'answer_not_found';
  if (summary.startsWith(text.noFindings)) return 'no_findings';
  // The sentence names how many sources were read: the template around a number no wording holds.
  const marker = '123456789';
  const [before, after] = text.notAnswered(Number(marker)).split(marker) as [string, string];
  return new RegExp(`^${escapeRegExp(before)}\\d+${escapeRegExp(after)}`, 'u').test(summary) ? 'not_answered' : null;
}

/** True for an answer that cannot be looked for in a text (yes / no). */
export function isYesNo(answer: string): boolean {
  return ['yes', 'no'].includes(answer.trim().toLowerCase());
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** How many words a span must share with a sentence to cover it (fewer only when the sentence is shorter). */
export const COVER_MIN_WORDS = 3;

/** The definition `npm run eval` prints beside the supporting-sentence recall. */
export const SENTENCE_RECALL_DEFINITION =
  "a supporting sentence counts as found when some claim from its page has an evidence span whose words (lower case, letters and digits) occur as one run in the page's paragraph " +
  `and share at least ${COVER_MIN_WORDS} words (or all of them, for a shorter sentence) with that sentence's place in it`;

/**
 * The indexes of the `sentences` (one paragraph, in order) that `span` covers: the span's words are found as
 * one run in the paragraph's words (every place they occur), and a sentence is covered when such a run shares
 * at least COVER_MIN_WORDS of its words (all of them when it has fewer). A span that does not occur in the
 * paragraph (a title, a footer, changed text) covers nothing.
 */
export function sentencesCoveredBy(span: string, sentences: readonly string[]): Set<number> {
  const paragraph = sentences.flatMap((sentence, index) => words(sentence).map((word) => ({ word, index })));
  const sizes = sentences.map((s) => words(s).length);
  const wanted = words(span);
  const covered = new Set<number>();
  if (wanted.length === 0) return covered;
  for (let start = 0; start + wanted.length <= paragraph.length; start++) {
    if (!wanted.every((w, i) => paragraph[start + i]!.word === w)) continue;
    const shared = new Map<number, number>();
    for (let i = start; i < start + wanted.length; i++) {
      const index = paragraph[i]!.index;
      shared.set(index, (shared.get(index) ?? 0) + 1);
    }
    for (const [index, n] of shared) if (n >= Math.min(COVER_MIN_WORDS, sizes[index]!)) covered.add(index);
  }
  return covered;
}

/** `part / whole`, or 0 when there is nothing to divide (a figure must be a number). */
export function share(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

/** `share` to 4 decimals: a figure of the closing `bench-result:` line. */
export function fraction(part: number, whole: number): number {
  return Number(share(part, whole).toFixed(4));
}

/** The median of `values` (0 for none). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The mean of `values` (0 for none). */
export function mean(values: readonly number[]): number {
  return values.length ? values.reduce((n, v) => n + v, 0) / values.length : 0;
}
