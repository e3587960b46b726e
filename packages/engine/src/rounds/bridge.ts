import { createPause, LlmFailure, type LlmCallContext, type LlmClient, type LlmFailureKind } from '@research/core';
import * as bridgePrompt from '../prompts/bridge.v1';
import { languageCode } from '../text/language';
import { namedEntities } from '../text/names';
import { sentencesSliced } from '../text/sentences';
import { termSet } from '../text/tokens';

/** A page the round read, in the order it was read (best search rank first). */
export interface BridgeSource {
  title: string | null;
  content: string;
}

export interface BridgeInput {
  question: string;
  language: string;
  sources: readonly BridgeSource[];
  /** Queries wanted at most. */
  limit: number;
}

/** Sentences of the round's pages read for names: the ones sharing most words with the question. */
const SENTENCES_READ = 12;
/** Characters of a page read for its sentences: the part where a page states what it is about. */
const PAGE_PREFIX_CHARS = 20_000;

interface ScoredSentence {
  text: string;
  /** Share of the question's terms the sentence holds, discounted by its page's read order. */
  score: number;
}

/** The sentences of the round's pages that share at least one term with the question, best first. */
async function relevantSentences(input: BridgeInput, questionTerms: ReadonlySet<string>): Promise<ScoredSentence[]> {
  const pause = createPause();
  const scored: ScoredSentence[] = [];
  for (const [index, source] of input.sources.entries()) {
    // A page read earlier ranked better; its sentences weigh a little more.
    const pageWeight = 1 / (1 + index / 10);
    const text = source.content.slice(0, PAGE_PREFIX_CHARS);
    for (const sentence of await sentencesSliced(text, input.language, { min: 20, max: 400 }, pause)) {
      const terms = termSet(sentence.text);
      let shared = 0;
      for (const term of questionTerms) if (terms.has(term)) shared++;
      if (shared > 0) scored.push({ text: sentence.text, score: (shared / questionTerms.size) * pageWeight });
    }
  }
  return scored.sort((a, b) => b.score - a.score).slice(0, SENTENCES_READ);
}

/** Characters of sentences the model is shown. */
const LLM_SENTENCE_CHARS = 6_000;

export interface BridgeResult {
  queries: string[];
  /** Who chose them. */
  mode: 'llm' | 'extractive';
  /** Set when the LLM was asked and failed (the extractive names were used instead). */
  fallback?: LlmFailureKind;
  fallbackReason?: string;
}

/**
 * The second hop's queries: with an LLM, the model reads the round's sentences closest to the question and
 * names what the question needs but does not name (one call); without one, or when the call fails,
 * bridgeQueries' names. The model's queries are kept only when they are not the question's own words.
 * Aborts and non-LLM errors propagate.
 */
export async function planBridge(
  llm: LlmClient | null,
  ctx: LlmCallContext,
  input: BridgeInput,
): Promise<BridgeResult> {
  const extractive = async (): Promise<BridgeResult> => ({ queries: await bridgeQueries(input), mode: 'extractive' });
  if (!llm || input.limit < 1 || input.sources.length === 0) return extractive();
  const questionTerms = termSet(input.question);
  const sentences = (await relevantSentences(input, questionTerms)).map((s) => s.text);
  if (sentences.length === 0) return extractive();
  let chars = 0;
  const shown = sentences.filter((s) => (chars += s.length) <= LLM_SENTENCE_CHARS);
  try {
    const answer = await llm.complete(ctx, {
      name: bridgePrompt.name,
      system: bridgePrompt.system,
      user: bridgePrompt.user({ query: input.question, sentences: shown, limit: input.limit }),
      schema: bridgePrompt.schema,
      maxTokens: 300,
    });
    const queries = answer.queries
      .map((q) => q.trim())
      .filter((q) => [...termSet(q, false)].some((t) => !questionTerms.has(t)))
      .slice(0, input.limit);
    return { queries, mode: 'llm' };
  } catch (error) {
    if (ctx.signal.aborted || !(error instanceof LlmFailure)) throw error;
    return { ...(await extractive()), fallback: error.kind, fallbackReason: error.message };
  }
}

/**
 * The second hop of a round without an LLM: names the question does not give but the round's most relevant
 * sentences do (the film's director, the band's founder), to be searched next. A name counts by the
 * relevance of the sentences that hold it; a name of a page the run read (holding every word of its title)
 * is searched as that title, for the pages that mention it; names made only of the question's own words
 * are left out. Names of several words come first: a lone capitalised word is as often a people, a month
 * or an abbreviation as a name, and searched alone it finds everything that mentions it; in German, which
 * capitalises every noun, it never counts. Pure and time-sliced: the same pages give the same queries.
 */
export async function bridgeQueries(input: BridgeInput): Promise<string[]> {
  if (input.limit < 1 || input.sources.length === 0) return [];
  const questionTerms = termSet(input.question);
  if (questionTerms.size === 0) return [];
  // A name holding every word of a page's title is that page's subject written out ("Mikhail Sergeyevich
  // Gorbachev" on the page "Mikhail Gorbachev"): it is searched as the title, for the pages that mention it.
  const readTitles = input.sources
    .map((s) => ({ name: s.title?.trim() ?? '', terms: termSet(s.title ?? '', false) }))
    .filter((t) => t.terms.size > 0);
  const asTitle = (name: string) => {
    const terms = termSet(name, false);
    return readTitles.find((t) => [...t.terms].every((x) => terms.has(x))) ?? { name, terms };
  };
  const german = languageCode(input.language) === 'de';
  const worth = new Map<string, { name: string; score: number }>();
  for (const sentence of await relevantSentences(input, questionTerms)) {
    for (const written of namedEntities(sentence.text)) {
      const { name, terms } = asTitle(written);
      const key = name.toLowerCase();
      if (german && !/\s/.test(name)) continue;
      if (terms.size === 0 || [...terms].every((t) => questionTerms.has(t))) continue;
      const entry = worth.get(key) ?? { name, score: 0 };
      entry.score += sentence.score;
      worth.set(key, entry);
    }
  }
  const words = (name: string) => (/\s/.test(name) ? 1 : 0);
  return [...worth.values()]
    .sort((a, b) => words(b.name) - words(a.name) || b.score - a.score)
    .slice(0, input.limit)
    .map((e) => e.name);
}

/**
 * The first hop's names, read from the snippets of the hits it will try (`input.sources`: title and snippet)
 * before any page is read: bridgeQueries' names of several words that no title of `titles` (the run's hits
 * and sources) holds whole. A lone word in a snippet names a broad subject ("Antarctica") or none
 * ("American"), and a name a hit is titled with has its page found already (a page's snippet names its own
 * subject). At most `input.limit`, best first.
 */
export async function snippetQueries(input: BridgeInput, titles: Iterable<string | null>): Promise<string[]> {
  const titled = [...titles].map((title) => termSet(title ?? '', false));
  const found = (name: string) => {
    const terms = [...termSet(name, false)];
    return titled.some((title) => terms.every((t) => title.has(t)));
  };
  // Asked for more names than wanted: the best of those kept.
  const names = await bridgeQueries({ ...input, limit: 4 * input.limit });
  return names.filter((name) => /\s/u.test(name) && !found(name)).slice(0, input.limit);
}
