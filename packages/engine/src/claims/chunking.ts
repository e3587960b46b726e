import { createPause, type Pause } from '@research/core';
import { sentencesSliced } from '../text/sentences';

/**
 * Splits a source's text into consecutive chunks of at most `maxChars`, together covering all of it
 * (nothing is truncated): whole lines where they fit, a long line at sentence ends, and only a single
 * sentence longer than a chunk at a word boundary. A long text is read a slice at a time.
 */
export async function chunkText(
  text: string,
  maxChars: number,
  language: string,
  pause: Pause = createPause(),
): Promise<string[]> {
  const limit = Math.max(200, Math.floor(maxChars));
  const pieces: string[] = [];
  for (const line of text.split('\n')) {
    await pause();
    if (line.length <= limit) {
      pieces.push(line);
      continue;
    }
    let rest = line;
    const cuts = (await sentencesSliced(line, language, { min: 1, max: Number.MAX_SAFE_INTEGER }, pause)).map(
      (s) => s.start,
    );
    let offset = 0;
    // Cuts at or before `offset` are behind the piece being cut: `next` moves forward only.
    let next = 0;
    // Greedy: take as many whole sentences as fit; words when one sentence alone is too long.
    while (rest.length > limit) {
      while (next < cuts.length && cuts[next]! <= offset) next++;
      let last = next;
      while (last < cuts.length && cuts[last]! - offset <= limit) last++;
      let at = last > next ? cuts[last - 1]! - offset : rest.lastIndexOf(' ', limit);
      if (at <= 0) at = limit;
      pieces.push(rest.slice(0, at));
      rest = rest.slice(at);
      offset += at;
      await pause();
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
