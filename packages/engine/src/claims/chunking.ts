import { sentences } from '../text/sentences';

/**
 * Splits a source's text into consecutive chunks of at most `maxChars`, together covering all of it
 * (nothing is truncated): whole lines where they fit, a long line at sentence ends, and only a single
 * sentence longer than a chunk at a word boundary.
 */
export function chunkText(text: string, maxChars: number, language: string): string[] {
  const limit = Math.max(200, Math.floor(maxChars));
  const pieces: string[] = [];
  for (const line of text.split('\n')) {
    if (line.length <= limit) {
      pieces.push(line);
      continue;
    }
    let rest = line;
    const cuts = sentences(line, language, { min: 1, max: Number.MAX_SAFE_INTEGER }).map((s) => s.start);
    let offset = 0;
    // Greedy: take as many whole sentences as fit; words when one sentence alone is too long.
    while (rest.length > limit) {
      const starts = cuts.map((c) => c - offset).filter((c) => c > 0 && c <= limit);
      let at = starts.length ? starts[starts.length - 1]! : rest.lastIndexOf(' ', limit);
      if (at <= 0) at = limit;
      pieces.push(rest.slice(0, at));
      rest = rest.slice(at);
      offset += at;
    }
    pieces.push(rest);
  }
  const chunks: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (!piece.trim()) continue;
    if (current && current.length + 1 + piece.length > limit) {
      chunks.push(current);
      current = piece;
    } else {
      current = current ? `${current}\n${piece}` : piece;
    }
  }
  if (current.trim()) chunks.push(current);
  return chunks;
}
