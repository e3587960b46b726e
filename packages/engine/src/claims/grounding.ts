import { createPause, mapInBlocks, normalizeWhitespace, normalizeWhitespaceSliced, type Pause } from '@research/core';
import { sentenceSteps } from '../text/sentences';
import { termSet } from '../text/tokens';

/** Smallest share of a span's terms a source sentence must hold to stand in for it. */
export const REPAIR_MIN_CONTAINMENT = 0.6;

/** Quote and dash variants an LLM tends to normalise when it quotes. */
function foldTypography(text: string): string {
  return text
    .replace(/[“”„«»‟″]/g, '"')
    .replace(/[‘’‚‹›′]/g, "'")
    .replace(/[‐‑‒–—―]/g, '-')
    .replace(/\u00a0/g, ' ');
}

/** The quote marks, dots and spaces an LLM adds or drops at the ends of a quote. */
const QUOTE_EDGE = new Set(['"', "'", '.', '…']);

/** A text without the quote marks, dots and whitespace at its ends. */
function trimQuoteEdges(text: string): string {
  const isEdge = (c: string) => QUOTE_EDGE.has(c) || /\s/.test(c);
  let start = 0;
  let end = text.length;
  while (start < end && isEdge(text[start]!)) start++;
  while (end > start && isEdge(text[end - 1]!)) end--;
  return text.slice(start, end);
}

/** The sentences of a source by the stemmed terms they hold (for repairing quotes). */
interface SentenceIndex {
  texts: string[];
  /** Distinct terms per sentence. */
  sizes: number[];
  /** Sentences (ascending) per term. */
  postings: Map<string, number[]>;
}

const REPAIR_SENTENCES = { min: 10, max: 2000 };

function emptyIndex(): SentenceIndex {
  return { texts: [], sizes: [], postings: new Map() };
}

function addSentence(index: SentenceIndex, text: string): void {
  const id = index.texts.length;
  const terms = termSet(text);
  index.texts.push(text);
  index.sizes.push(terms.size);
  for (const term of terms) {
    const list = index.postings.get(term);
    if (list) list.push(id);
    else index.postings.set(term, [id]);
  }
}

async function indexSentencesSliced(content: string, language: string, pause: Pause): Promise<SentenceIndex> {
  const index = emptyIndex();
  for (const sentence of sentenceSteps(content, language, REPAIR_SENTENCES)) {
    if (sentence) addSentence(index, sentence.text);
    else await pause();
  }
  return index;
}

/** The span as it occurs in the text: verbatim, or with typography and case folded (as the text writes it). */
function findQuote(needle: string, text: string, folded: () => string): string | null {
  if (text.includes(needle)) return needle;
  // Same length after folding: an index found in the folded text is an index in the original.
  const foldedText = folded();
  if (foldedText.length !== text.length) return null;
  const foldedNeedle = foldTypography(needle).toLowerCase();
  // As quoted first, then without the quote marks and dots an LLM adds or drops at the ends.
  for (const candidate of [foldedNeedle, trimQuoteEdges(foldedNeedle)]) {
    const at = candidate.length >= 12 ? foldedText.indexOf(candidate) : -1;
    if (at >= 0) return text.slice(at, at + candidate.length);
  }
  return null;
}

/** The sentence holding most of the span's terms (the first of equals), if it holds enough of them. */
function repairQuote(needle: string, text: string, index: SentenceIndex): string | null {
  const wanted = termSet(needle);
  if (wanted.size === 0) return null;
  const shared = new Map<number, number>();
  for (const term of wanted) {
    for (const id of index.postings.get(term) ?? []) shared.set(id, (shared.get(id) ?? 0) + 1);
  }
  let best: { id: number; score: number } | null = null;
  for (const [id, overlap] of shared) {
    const size = index.sizes[id]!;
    const score = (overlap / Math.min(wanted.size, size)) * Math.min(1, size / wanted.size);
    if (!best || score > best.score || (score === best.score && id < best.id)) best = { id, score };
  }
  if (!best || best.score < REPAIR_MIN_CONTAINMENT) return null;
  const repaired = normalizeWhitespace(index.texts[best.id]!);
  return text.includes(repaired) ? repaired : null;
}

/**
 * Grounds an evidence span in its source: the span itself when it occurs in the text; else the same
 * passage found with typography and case folded (returned as the source writes it); else the source
 * sentence that holds most of the span's terms (at least REPAIR_MIN_CONTAINMENT of them). Null when no
 * real passage is close enough: the claim is then dropped, never stored with an invented quote. For a
 * long source, or many spans of one, use prepareGrounding.
 */
export function groundSpan(span: string, content: string, language: string): string | null {
  const needle = normalizeWhitespace(span);
  if (!needle) return null;
  const text = normalizeWhitespace(content);
  const quote = findQuote(needle, text, () => foldTypography(text).toLowerCase());
  if (quote !== null) return quote;
  const index = emptyIndex();
  for (const sentence of sentenceSteps(content, language, REPAIR_SENTENCES))
    if (sentence) addSentence(index, sentence.text);
  return repairQuote(needle, text, index);
}

/** A source's text prepared for grounding any number of evidence spans in it. */
export interface Grounding {
  /** What groundSpan answers for the span in this source. */
  ground(span: string): Promise<string | null>;
}

/**
 * groundSpan for a source of any length and any number of spans: the source is normalised once, and
 * folded and indexed by sentence once when a span first needs it, every step a slice at a time, so
 * it never holds the event loop and many spans cost one pass over it, not one each.
 */
export function prepareGrounding(content: string, language: string, pause: Pause = createPause()): Grounding {
  let normalized: Promise<string> | undefined;
  let folded: Promise<string> | undefined;
  let index: Promise<SentenceIndex> | undefined;
  return {
    async ground(span) {
      const needle = normalizeWhitespace(span);
      if (!needle) return null;
      const text = await (normalized ??= normalizeWhitespaceSliced(content, pause));
      if (text.includes(needle)) return needle;
      const foldedText = await (folded ??= mapInBlocks(text, (block) => foldTypography(block).toLowerCase(), pause));
      const quote = findQuote(needle, text, () => foldedText);
      if (quote !== null) return quote;
      return repairQuote(needle, text, await (index ??= indexSentencesSliced(content, language, pause)));
    },
  };
}
