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

/**
 * What tells two search queries apart: their words, case and whitespace aside ("Kiel  bridge" is "kiel bridge").
 * The search step sends queries with their whitespace collapsed; every comparison with a sent query uses this key.
 */
export function queryKey(query: string): string {
  return normalizeWhitespace(query).toLowerCase();
}

/** Characters of a long text that mapInBlocks hands its function at once. */
const TEXT_BLOCK = 256 * 1024;

// Where a word ends and whitespace begins: a cut there splits no whitespace run, no word (so no letter
// loses the context case mapping reads, such as a final sigma) and no surrogate pair.
const WORD_END = /\S\s/g;

/**
 * `fn(text)` for a text of any length without holding the event loop: the text is cut into blocks of
 * about TEXT_BLOCK characters, each cut where a word ends and whitespace begins, and `fn` is applied to
 * one block per slice. For functions that give the same result on such blocks as on the whole text
 * (collapsing whitespace, folding case and typography); a text without whitespace is one block.
 */
export async function mapInBlocks(
  text: string,
  fn: (block: string) => string,
  pause: Pause = createPause(),
): Promise<string> {
  if (text.length <= TEXT_BLOCK) return fn(text);
  const parts: string[] = [];
  for (let start = 0; start < text.length;) {
    WORD_END.lastIndex = start + TEXT_BLOCK - 1;
    const found = WORD_END.exec(text);
    const end = found ? found.index + 1 : text.length;
    parts.push(fn(text.slice(start, end)));
    start = end;
    await pause();
  }
  return parts.join('');
}

/** normalizeWhitespace for texts of any length, a block at a time (see mapInBlocks). */
export async function normalizeWhitespaceSliced(value: string, pause: Pause = createPause()): Promise<string> {
  return (await mapInBlocks(value, (block) => block.replace(WHITESPACE_TO_COLLAPSE, ' '), pause)).trim();
}
