import { normalizeWhitespace } from '@research/core';

/**
 * Reference marks an encyclopedia puts after a statement, "[14]", "[a]", "[note 3]", "[citation needed]": links to
 * its notes, not words of the statement.
 */
export const REFERENCE_MARK =
  '\\[(?:\\d{1,4}|[a-z]|(?:note|nb|n) ?\\d{1,3}|citation needed|clarification needed|better source needed|when\\?|who\\?|which\\?|according to whom\\?)\\]';
const REFERENCE_MARKS = new RegExp(REFERENCE_MARK, 'giu');

/**
 * A news dateline opening a sentence: a place in capitals, maybe with its agency ("CAIRO — ", "WASHINGTON (Reuters) -
 * "), or a date ("Feb. 23, 2015 -- "), then a dash: where and when the wire filed it, not what it says.
 */
const DATELINE =
  /^(?:[A-Z]{2}[A-Z .,'’-]{0,38}(?:\s*\([^()]{1,40}\))?|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)[a-z]*\.? \d{1,2},? \d{4})\s*(?:--|—|–|-)\s+(?=\S)/u;

/**
 * The words a claim shows for its evidence span (the span itself stays verbatim, as the source has it): without
 * reference marks and without a dateline in front, whitespace normalised. The span when nothing would be left.
 */
export function claimTextOf(span: string): string {
  const text = normalizeWhitespace(span.replace(REFERENCE_MARKS, '').replace(DATELINE, ''));
  return text || normalizeWhitespace(span);
}
