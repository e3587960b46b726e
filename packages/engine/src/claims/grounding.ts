import { normalizeWhitespace } from '@research/core';
import { sentences } from '../text/sentences';
import { containment, termSet } from '../text/tokens';

/** Smallest share of a span's terms a source sentence must hold to stand in for it. */
export const REPAIR_MIN_CONTAINMENT = 0.6;

/** Quote and dash variants an LLM tends to normalise when it quotes. */
function foldTypography(text: string): string {
  return text
    .replace(/[“”„«»‟″]/g, '"')
    .replace(/[‘’‚‹›′]/g, "'")
    .replace(/[‐‑‒–—―]/g, '-')
    .replace(/\u00a0/g, ' ');
}

/** True when `span` occurs in `content` after whitespace normalisation (how grounding is checked). */
export function isGrounded(span: string, content: string): boolean {
  const needle = normalizeWhitespace(span);
  return needle.length > 0 && normalizeWhitespace(content).includes(needle);
}

/**
 * Grounds an evidence span in its source: the span itself when it occurs in the text; else the same
 * passage found with typography and case folded (returned as the source writes it); else the source
 * sentence that holds most of the span's terms (at least REPAIR_MIN_CONTAINMENT of them). Null when no
 * real passage is close enough: the claim is then dropped, never stored with an invented quote.
 */
export function groundSpan(span: string, content: string, language: string): string | null {
  const needle = normalizeWhitespace(span);
  if (!needle) return null;
  const haystack = normalizeWhitespace(content);
  if (haystack.includes(needle)) return needle;

  // Same length after folding: an index found in the folded text is an index in the original.
  const folded = foldTypography(haystack).toLowerCase();
  const foldedNeedle = foldTypography(needle).toLowerCase();
  if (folded.length === haystack.length) {
    // As quoted first, then without the quote marks and dots an LLM adds or drops at the ends.
    for (const candidate of [foldedNeedle, foldedNeedle.replace(/^["'.…\s]+|["'.…\s]+$/g, '')]) {
      const at = candidate.length >= 12 ? folded.indexOf(candidate) : -1;
      if (at >= 0) return haystack.slice(at, at + candidate.length);
    }
  }

  const wanted = termSet(needle);
  if (wanted.size === 0) return null;
  let best: { text: string; score: number } | null = null;
  for (const sentence of sentences(content, language, { min: 10, max: 2000 })) {
    const score = containment(wanted, termSet(sentence.text)) * Math.min(1, termSet(sentence.text).size / wanted.size);
    if (!best || score > best.score) best = { text: sentence.text, score };
  }
  if (!best || best.score < REPAIR_MIN_CONTAINMENT) return null;
  const repaired = normalizeWhitespace(best.text);
  return haystack.includes(repaired) ? repaired : null;
}
