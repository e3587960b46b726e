import crypto from 'node:crypto';
import { normalizeWhitespace } from './text';

// Evidence anyone can check: a source stores the SHA-256 of its text, and a claim the offsets of its
// evidence span in that text, so that text[span_start:span_end] is the evidence span, character for
// character. Offsets count Unicode code points (as Python's str, Postgres's substr and most languages
// other than JavaScript do), not UTF-16 code units; they are half-open: [span_start, span_end).

/** Hex SHA-256 of a text's UTF-8 bytes: a source's `content_sha256`. */
export function contentSha256(text: string): string {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/-]/g;

/**
 * Where a quote stands in a text, as UTF-16 indexes [start, end): the quote itself, or else the passage
 * that reads as the quote once its whitespace is collapsed as evidence spans are compared (a quote
 * across a line break or a double space). Null when the text holds neither, and for a blank quote.
 */
export function locateQuote(text: string, quote: string): { start: number; end: number } | null {
  const needle = normalizeWhitespace(quote);
  if (!needle) return null;
  const exact = text.indexOf(needle);
  if (exact >= 0) return { start: exact, end: exact + needle.length };
  // The needle's words in order, any run of whitespace between them. Each `\s+` is followed by a character
  // that is not whitespace, so a failed attempt backtracks over one run at most.
  const pattern = needle
    .split(' ')
    .map((word) => word.replace(REGEX_SPECIAL, '\\$&'))
    .join('\\s+');
  const found = new RegExp(pattern).exec(text);
  return found ? { start: found.index, end: found.index + found[0].length } : null;
}

const SURROGATE_PAIR = /[\uD800-\uDBFF][\uDC00-\uDFFF]/g;

/** Converts between a text's UTF-16 indexes and its code point offsets. */
export interface CodePointIndex {
  /** The text's length in code points. */
  readonly length: number;
  /** The code point offset of a UTF-16 index (one that does not split a surrogate pair). */
  toCodePoint(utf16: number): number;
  /** The UTF-16 index of a code point offset. */
  toUtf16(codePoint: number): number;
}

/** The first index of an ascending list whose value (by `key`) is not below `bound`. */
function lowerBound(count: number, key: (i: number) => number, bound: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (key(mid) < bound) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A text's code point index: one native scan for its surrogate pairs, then each conversion a binary
 * search (a text without characters beyond the BMP converts as it is).
 */
export function codePointIndex(text: string): CodePointIndex {
  // The UTF-16 index of each surrogate pair; pair k starts at code point pairs[k] - k.
  const pairs = Array.from(text.matchAll(SURROGATE_PAIR), (m) => m.index);
  return {
    length: text.length - pairs.length,
    toCodePoint: (utf16) => utf16 - lowerBound(pairs.length, (k) => pairs[k]!, utf16),
    toUtf16: (codePoint) => codePoint + lowerBound(pairs.length, (k) => pairs[k]! - k, codePoint),
  };
}

/**
 * The code point index of each source's text, built once per source however many of its claims are placed
 * or checked (a long page has many claims).
 */
export function sourceIndexes(): (source: { id: string; content: string }) => CodePointIndex {
  const indexes = new Map<string, CodePointIndex>();
  return (source) => {
    let index = indexes.get(source.id);
    if (index === undefined) indexes.set(source.id, (index = codePointIndex(source.content)));
    return index;
  };
}

/** A claim's evidence span and where it says the span stands in its source's text. */
export interface PlacedEvidence {
  evidence_span: string;
  span_start: number | null;
  span_end: number | null;
}

/**
 * Why a claim's stored span does not hold against its source's text, or null when text[span_start:span_end]
 * (code points) is exactly its evidence span. Pass the text's `index` when checking many claims of it.
 */
export function evidenceSpanProblem(
  text: string,
  claim: PlacedEvidence,
  index: CodePointIndex = codePointIndex(text),
): string | null {
  const { span_start: start, span_end: end } = claim;
  if (start === null || end === null) return 'no span stored (span_start and span_end are null)';
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 0 || start > end || end > index.length) {
    return `span ${start}..${end} does not lie within the source text (${index.length} characters)`;
  }
  const passage = text.slice(index.toUtf16(start), index.toUtf16(end));
  return passage === claim.evidence_span ? null : `the source text at ${start}..${end} is not the evidence span`;
}
