import { createPause, type Pause } from './time-slice';

/** Removes characters Postgres refuses in text columns (NUL) so client input can never reach a 500. */
export function stripNul(value: string): string {
  return value.includes('\u0000') ? value.replace(/\u0000/g, '') : value;
}

// Every whitespace run but a lone space: the same result as replacing every run (/\s+/g), an order of
// magnitude faster on prose, where almost every run is a lone space.
const WHITESPACE_TO_COLLAPSE = / \s+|[^\S ]\s*/g;

/** Collapses runs of whitespace to one space and trims: how evidence spans are compared with source text. */
export function normalizeWhitespace(value: string): string {
  return value.replace(WHITESPACE_TO_COLLAPSE, ' ').trim();
}

/** Characters of a long text normalised at once by normalizeWhitespaceSliced. */
const NORMALIZE_BLOCK = 256 * 1024;

/**
 * normalizeWhitespace for texts of any length without holding the event loop: the text is cut after
 * a non-blank character (so no whitespace run is split) into blocks normalised one slice at a time.
 */
export async function normalizeWhitespaceSliced(value: string, pause: Pause = createPause()): Promise<string> {
  if (value.length <= NORMALIZE_BLOCK) return normalizeWhitespace(value);
  const parts: string[] = [];
  let start = 0;
  while (start < value.length) {
    let end = Math.min(value.length, start + NORMALIZE_BLOCK);
    while (end < value.length && /\s/.test(value[end - 1]!)) end++;
    parts.push(value.slice(start, end).replace(WHITESPACE_TO_COLLAPSE, ' '));
    start = end;
    await pause();
  }
  return parts.join('').trim();
}
