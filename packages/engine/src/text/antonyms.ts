import { OPPOSITES } from './language';
import { WORDNET_ANTONYM_PAIRS } from './wordnet-antonyms';

/**
 * Opposite words by dictionary form: WordNet's direct antonyms of adjectives and verbs (safe/dangerous,
 * accept/reject) and the service's own list of opposite verdicts in several languages (language.ts).
 * Built on first use, not at import.
 */
let antonyms: Map<string, string[]> | null = null;

export function antonymsOf(lemma: string): readonly string[] {
  antonyms ??= buildAntonyms();
  return antonyms.get(lemma) ?? [];
}

function buildAntonyms(): Map<string, string[]> {
  const map = new Map<string, string[]>();
  const add = (a: string, b: string) => {
    const list = map.get(a) ?? [];
    if (!list.includes(b)) map.set(a, [...list, b]);
  };
  const pairs = [...WORDNET_ANTONYM_PAIRS.map((p) => p.split(':') as [string, string]), ...OPPOSITES];
  for (const [a, b] of pairs) {
    add(a, b);
    add(b, a);
  }
  return map;
}
