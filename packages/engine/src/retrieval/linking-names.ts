import { createPause, type Pause } from '@research/core';
import { languageCode } from '../text/language';
import { byNearness, nameSpans } from '../answer/spans';
import { questionNames, subjectKey } from '../text/names';
import { sentencesSliced } from '../text/sentences';
import { termWeights, weightOf } from '../text/term-weights';
import { termSet } from '../text/tokens';

/** A page the run read, in the order it was read. */
export interface ReadPage {
  title: string | null;
  content: string;
}

/** A sentence of a read page with the share of the question's weight it holds, its page's subject helping. */
export interface PageSentence {
  page: number;
  text: string;
  /** 0 to 1. */
  held: number;
  /** Its terms and its page title's. */
  terms: ReadonlySet<string>;
}

/** Characters of a page read for its sentences: the part where a page states what it is about. */
const PAGE_PREFIX_CHARS = 20_000;

/**
 * The sentences of the pages that share a term with the question, best first: each holds the question's
 * terms it and its page's title hold (the title stands for the "he" or "it" of the page), weighed by how few
 * sentences of the pages hold them (termWeights). Ties keep the pages' and sentences' order.
 */
export async function questionSentences(
  question: string,
  language: string,
  pages: readonly ReadPage[],
  pause: Pause = createPause(),
): Promise<PageSentence[]> {
  const asked = termSet(question);
  const read: Array<{ page: number; text: string; terms: Set<string> }> = [];
  for (const [page, source] of pages.entries()) {
    const title = termSet(source.title ?? '');
    const text = source.content.slice(0, PAGE_PREFIX_CHARS);
    for (const sentence of await sentencesSliced(text, language, { min: 20, max: 400 }, pause)) {
      read.push({ page, text: sentence.text, terms: new Set([...termSet(sentence.text), ...title]) });
    }
  }
  const weights = termWeights(
    asked,
    read.map((r) => r.terms),
  );
  const total = weightOf(asked, weights);
  if (total <= 0) return [];
  return read
    .map((r) => ({
      page: r.page,
      text: r.text,
      terms: r.terms,
      held:
        weightOf(
          [...asked].filter((t) => r.terms.has(t)),
          weights,
        ) / total,
    }))
    .filter((s) => s.held > 0)
    .sort((a, b) => b.held - a.held);
}

/** A name to search next, and what it is worth (its page's fit to the question, by rank). */
export interface LinkingName {
  name: string;
  weight: number;
  /**
   * What to search for it: the name alone. (Adding the question's words its sentence left open found fewer
   * gold pages on every tune set: the name's own page is what a name's search is for.)
   */
  query: string;
}

/** Names read from one page at most: what links a page to the next one is in its one or two best sentences. */
// Swept on the tune sets (1, 2, 3 names a page): all gold pages fetched 209, 227, 223 of 311 questions.
export const NAMES_PER_PAGE = 2;

/**
 * The names to search next (the second step of a question): read from the pages of the names the question gives,
 * then from the pages that best match the question (their best sentence's share of it, see questionSentences),
 * at most NAMES_PER_PAGE a page, from that page's
 * sentences in order of fit and in a sentence nearest the question's words first (byNearness), each weighted by
 * its page's rank among them (1, 1/2, 1/3 …). A name counts when
 * the question does not give all its words, it is not the subject of a page the run holds (its own page is
 * read already) and it was not searched (`searched`, compared as subjectKeys); a name of one word counts as one
 * of several ("Nandrolone", "Trier"). In German, which capitalises every noun, only names of several words.
 */
export async function linkingNames(input: {
  question: string;
  language: string;
  pages: readonly ReadPage[];
  searched: ReadonlySet<string>;
  limit: number;
  pause?: Pause;
}): Promise<LinkingName[]> {
  if (input.limit < 1 || input.pages.length === 0) return [];
  const asked = termSet(input.question);
  const subjects = input.pages.map((p) => subjectKey(p.title ?? ''));
  const held = new Set(subjects.filter(Boolean));
  const german = languageCode(input.language) === 'de';
  const sentences = await questionSentences(input.question, input.language, input.pages, input.pause);
  // Pages by their best sentence (the order questionSentences gives them in), the pages of the names the question
  // gives first: a chain starts at what the question names ("the performer of song Madan": the song's page names
  // its performer), however much of the question's other words another page's sentence holds ("a songwriter and
  // performer").
  const named = new Set(questionNames(input.question, input.language).map(subjectKey));
  const isNamed = (page: number) => named.has(subjects[page]!);
  const pageOrder: number[] = [];
  for (const s of sentences) if (isNamed(s.page) && !pageOrder.includes(s.page)) pageOrder.push(s.page);
  for (const s of sentences) if (!pageOrder.includes(s.page)) pageOrder.push(s.page);
  const taken = new Set<string>();
  const out: LinkingName[] = [];
  pageOrder.forEach((page, rank) => {
    let fromPage = 0;
    for (const sentence of sentences) {
      if (sentence.page !== page || fromPage >= NAMES_PER_PAGE) continue;
      // The names the question's words point at first: "directed by Amleto Palermi" before "Italian".
      const spans = byNearness(sentence.text, nameSpans(sentence.text), asked);
      for (const name of spans.map((span) => span.text.replace(/['’]s$/u, ''))) {
        const key = subjectKey(name);
        const terms = termSet(name);
        if (fromPage >= NAMES_PER_PAGE || !key || taken.has(key) || held.has(key) || input.searched.has(key)) continue;
        if (terms.size === 0 || [...terms].every((t) => asked.has(t)) || (german && !/\s/u.test(name))) continue;
        taken.add(key);
        fromPage++;
        out.push({ name, weight: 1 / (1 + rank), query: name });
      }
    }
  });
  return out.slice(0, input.limit);
}
