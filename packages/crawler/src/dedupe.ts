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

/** The sketch of a text: the smallest SKETCH_SIZE distinct hashes of its 5-word shingles. */
export function sketchText(text: string): TextSketch {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const hashes = new Set<number>();
  if (words.length > 0 && words.length < SHINGLE_WORDS) hashes.add(fnv1a(words.join(' ')));
  for (let i = 0; i + SHINGLE_WORDS <= words.length; i++)
    hashes.add(fnv1a(words.slice(i, i + SHINGLE_WORDS).join(' ')));
  const sorted = Uint32Array.from(hashes).sort();
  return sorted.length > SKETCH_SIZE ? sorted.slice(0, SKETCH_SIZE) : sorted;
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

/** Remembers sources already kept in a run and recognises the same page again (by URL or by text). */
export interface SourceDeduper {
  /** True when a URL (normalised) was seen before; otherwise remembers it. */
  seenUrl(normalizedUrl: string): boolean;
  /** True when the text is near-identical to a kept text; otherwise remembers it. */
  seenText(text: string): boolean;
}

/** Builds a deduper, primed with sources kept earlier (earlier rounds of the same run). */
export function createSourceDeduper(existing: Array<{ url: string; content?: string | null }> = []): SourceDeduper {
  const urls = new Set<string>();
  const sketches: TextSketch[] = [];
  const keyOf = (url: string) => {
    try {
      return urlIdentityKey(url);
    } catch {
      return url;
    }
  };
  for (const source of existing) {
    urls.add(keyOf(source.url));
    if (source.content) sketches.push(sketchText(source.content));
  }
  return {
    seenUrl(normalizedUrl) {
      const key = keyOf(normalizedUrl);
      if (urls.has(key)) return true;
      urls.add(key);
      return false;
    },
    seenText(text) {
      const sketch = sketchText(text);
      if (sketch.length === 0) return false;
      if (sketches.some((other) => estimateJaccard(sketch, other) >= NEAR_DUPLICATE_JACCARD)) return true;
      sketches.push(sketch);
      return false;
    },
  };
}
