// A quoted span within a source's text. The API places spans in Unicode code points (an emoji counts one,
// as in Python), while JavaScript strings index UTF-16 units, so offsets are walked, never used as indexes.

/** The text around the quoted span, and the span itself (null when there is nothing to mark). */
export interface Highlight {
  before: string;
  marked: string | null;
  after: string;
}

function isHighSurrogate(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

/**
 * The UTF-16 index `codePoints` code points after `from` (a unit index on a code point's start), stopping at
 * the text's end. A lone surrogate counts as one code point, as Array.from counts it.
 */
function unitsAfter(text: string, from: number, codePoints: number): number {
  let unit = from;
  for (let n = 0; n < codePoints && unit < text.length; n++) {
    const pair = isHighSurrogate(text.charCodeAt(unit)) && isLowSurrogate(text.charCodeAt(unit + 1));
    unit += pair ? 2 : 1;
  }
  return unit;
}

function split(text: string, start: number, end: number): Highlight {
  return { before: text.slice(0, start), marked: text.slice(start, end), after: text.slice(end) };
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Where the quote occurs: verbatim first, then with any run of white space matching any other. */
function findQuote(text: string, quote: string): Highlight | null {
  const wanted = quote.trim();
  if (wanted === '') return null;
  const at = text.indexOf(wanted);
  if (at >= 0) return split(text, at, at + wanted.length);
  const loose = new RegExp(wanted.split(/\s+/).map(escapeRegExp).join('\\s+'), 'u');
  const found = loose.exec(text);
  return found ? split(text, found.index, found.index + found[0].length) : null;
}

/**
 * Splits `text` around [start, end) given in code points. Offsets past the text are clamped to it; when
 * they are missing, not integers or leave nothing to mark, the quote is searched for instead; when that
 * fails too, nothing is marked.
 */
export function highlightSpan(
  text: string,
  start: number | null,
  end: number | null,
  quote?: string | null,
): Highlight {
  if (Number.isInteger(start) && Number.isInteger(end)) {
    const from = unitsAfter(text, 0, Math.max(0, start as number));
    const to = unitsAfter(text, from, (end as number) - Math.max(0, start as number));
    if (to > from) return split(text, from, to);
  }
  return (quote && findQuote(text, quote)) || { before: text, marked: null, after: '' };
}
