import { createPause, type Pause } from '@research/core';
import { urlIdentityKey } from './url-policy';

/** Size of the bottom-k MinHash sketch: ±~3% error on the Jaccard estimate, a few KiB per source. */
const SKETCH_SIZE = 256;
/** Words per shingle. */
const SHINGLE_WORDS = 5;
/** Two texts whose shingle sets overlap this much are the same text (mirrors, syndicated copies). */
export const NEAR_DUPLICATE_JACCARD = 0.85;

/** A bottom-k MinHash sketch of a text's word shingles, sorted ascending. */
export type TextSketch = Uint32Array;

/** FNV-1a, 32 bits: fast, well spread for short strings, no dependency. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Bottom-k of a stream of hashes: candidates gather up to twice the sketch, then the smallest are kept. */
function bottomK(): { add(hash: number): void; sketch(): TextSketch } {
  let kept = new Uint32Array(0);
  let candidates: number[] = [];
  // Once SKETCH_SIZE hashes are kept, a hash above the largest of them can never enter.
  let ceiling = Infinity;
  const compact = () => {
    const merged = Uint32Array.from(new Set([...kept, ...candidates])).sort();
    kept = merged.length > SKETCH_SIZE ? merged.slice(0, SKETCH_SIZE) : merged;
    if (kept.length === SKETCH_SIZE) ceiling = kept[SKETCH_SIZE - 1]!;
    candidates = [];
  };
  return {
    add(hash) {
      if (hash > ceiling) return;
      candidates.push(hash);
      if (candidates.length >= 2 * SKETCH_SIZE) compact();
    },
    sketch() {
      compact();
      return kept;
    },
  };
}

/**
 * The sketch of a text: the smallest SKETCH_SIZE distinct hashes of its 5-word shingles. Reads the text a
 * word at a time, pausing between slices of work: a 5 MB page is one pass, without holding the event loop.
 */
export async function sketchText(text: string, pause: Pause = createPause()): Promise<TextSketch> {
  const lower = text.toLowerCase();
  const word = /[\p{L}\p{N}]+/gu;
  const window: string[] = [];
  const hashes = bottomK();
  let count = 0;
  for (let match = word.exec(lower); match; match = word.exec(lower)) {
    window.push(match[0]);
    if (window.length > SHINGLE_WORDS) window.shift();
    if (window.length === SHINGLE_WORDS) hashes.add(fnv1a(window.join(' ')));
    if (++count % 1024 === 0) await pause();
  }
  if (count > 0 && count < SHINGLE_WORDS) hashes.add(fnv1a(window.join(' ')));
  return hashes.sketch();
}

/** Estimated Jaccard similarity of two texts' shingle sets from their bottom-k sketches. */
export function estimateJaccard(a: TextSketch, b: TextSketch): number {
  if (a.length === 0 || b.length === 0) return 0;
  const k = Math.min(SKETCH_SIZE, a.length + b.length);
  // Walk the union in order; of its k smallest, count those present in both.
  let i = 0;
  let j = 0;
  let seen = 0;
  let both = 0;
  while (seen < k && (i < a.length || j < b.length)) {
    if (j >= b.length || (i < a.length && a[i] < b[j])) i++;
    else if (i >= a.length || b[j] < a[i]) j++;
    else {
      both++;
      i++;
      j++;
    }
    seen++;
  }
  return seen === 0 ? 0 : both / seen;
}

/** A kept text and who holds it: a candidate's position in its round, or EARLIER_ROUND. */
export interface KeptText {
  owner: number;
}

/** The owner of texts kept in earlier rounds of the run: never given up to a copy. */
export const EARLIER_ROUND = -1;

/** Remembers sources already kept in a run and recognises the same page again (by URL or by text). */
export interface SourceDeduper {
  /** True when a URL (normalised) was seen before; otherwise remembers it. */
  seenUrl(normalizedUrl: string): boolean;
  /** The kept text this text nearly repeats; null when it is new, and then it is remembered as owner's. */
  seenText(text: string, owner: number): Promise<KeptText | null>;
}

/** Builds a deduper, primed with sources kept earlier (earlier rounds of the same run). */
export async function createSourceDeduper(
  existing: Array<{ url: string; content?: string | null }> = [],
): Promise<SourceDeduper> {
  const urls = new Set<string>();
  const sketches: Array<{ sketch: TextSketch; kept: KeptText }> = [];
  const pause = createPause();
  const keyOf = (url: string) => {
    try {
      return urlIdentityKey(url);
    } catch {
      return url;
    }
  };
  for (const source of existing) {
    urls.add(keyOf(source.url));
    if (source.content)
      sketches.push({ sketch: await sketchText(source.content, pause), kept: { owner: EARLIER_ROUND } });
  }
  return {
    seenUrl(normalizedUrl) {
      const key = keyOf(normalizedUrl);
      if (urls.has(key)) return true;
      urls.add(key);
      return false;
    },
    async seenText(text, owner) {
      const sketch = await sketchText(text, pause);
      if (sketch.length === 0) return null;
      const copied = sketches.find((other) => estimateJaccard(sketch, other.sketch) >= NEAR_DUPLICATE_JACCARD);
      if (copied) return copied.kept;
      sketches.push({ sketch, kept: { owner } });
      return null;
    },
  };
}
