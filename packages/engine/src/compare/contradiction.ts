import { OPPOSITES, languageProfile } from '../text/language';
import { containment, jaccard, overlapCount, quantities, termSet, words, years } from '../text/tokens';

export type ContradictionKind = 'numeric' | 'date' | 'negation' | 'opposite_verdict';

export interface Contradiction {
  kind: ContradictionKind;
  /** What each side says that the other denies (the disagreeing numbers or words). */
  detail: string;
}

/** Two statements are about the same subject when this share of the smaller one's terms is shared. */
export const SAME_SUBJECT = 0.5;
/** Negation and opposite verdicts need less shared wording: the verdict word itself differs. */
export const VERDICT_SUBJECT = 0.34;
/** Numbers of the same unit disagree when they differ by more than this share of the larger one. */
export const NUMERIC_TOLERANCE = 0.05;

const NEGATION_ALL = [
  languageProfile('en').negation,
  languageProfile('de').negation,
  languageProfile('fr').negation,
  languageProfile('es').negation,
  languageProfile('it').negation,
];

function negated(text: string): boolean {
  return NEGATION_ALL.some((re) => re.test(text));
}

const OPPOSITE_INDEX: Map<string, string[]> = (() => {
  const map = new Map<string, string[]>();
  for (const [a, b] of OPPOSITES) {
    map.set(a, [...(map.get(a) ?? []), b]);
    map.set(b, [...(map.get(b) ?? []), a]);
  }
  return map;
})();

/** Capitalised words after a statement's first word: the names it is about. */
function names(text: string): Set<string> {
  return new Set((text.match(/(?<=[\s(„"“'])\p{Lu}[\p{L}\p{N}-]+/gu) ?? []).map((w) => w.toLowerCase()));
}

/**
 * Statements naming different things are about different subjects, however alike their wording ("X is
 * a band formed in 2013" and "Y is a band formed in 2014"): at least half of the names of the statement
 * with fewer names must recur in the other.
 */
function sameNames(a: string, b: string): boolean {
  const na = names(a);
  const nb = names(b);
  if (na.size === 0 || nb.size === 0) return true;
  return containment(na, nb) >= 0.5;
}

function numericDisagreement(a: string, b: string): string | null {
  const qa = quantities(a);
  const qb = quantities(b);
  for (const x of qa) {
    if (!x.unit) continue;
    const sameUnit = qb.filter((y) => y.unit === x.unit);
    if (sameUnit.length === 0) continue;
    // Agreement on any value of that unit is no contradiction ("20 cm … and later 35 cm" vs "35 cm").
    const agrees = sameUnit.some((y) => Math.abs(x.value - y.value) <= NUMERIC_TOLERANCE * Math.max(x.value, y.value));
    const bAgrees = sameUnit.every((y) =>
      qa.some(
        (z) => z.unit === y.unit && Math.abs(z.value - y.value) <= NUMERIC_TOLERANCE * Math.max(z.value, y.value),
      ),
    );
    if (!agrees && !bAgrees) return `${x.text} ≠ ${sameUnit.map((y) => y.text).join(', ')}`;
  }
  return null;
}

/** The `detail` codes of a negation contradiction (the report words them in the run's language). */
export const NEGATION_FIRST = 'first denies';
export const NEGATION_SECOND = 'second denies';

/**
 * The contradiction detector of the compare step, for two statements of different sources:
 * - numeric: both state a quantity of the same unit and no value agrees (beyond NUMERIC_TOLERANCE);
 * - date: both name years, none in common, and the statements are near-identical otherwise;
 * - negation: one is negated, the other not, about the same subject;
 * - opposite verdict: one holds a word and the other its opposite (rises/falls, safe/dangerous).
 * Every rule first requires a shared subject (numbers and dates: SAME_SUBJECT of the smaller statement's
 * terms shared, numbers left out; verdicts: VERDICT_SUBJECT), so statements about different things
 * do not contradict. Precision is preferred to recall: a flagged contradiction lands in the report.
 */
export function detectContradiction(a: string, b: string): Contradiction | null {
  const ta = termSet(a, false);
  const tb = termSet(b, false);
  const shared = overlapCount(ta, tb);
  const subject = containment(ta, tb);
  // Short statements share fewer words: a third of the shorter one's terms, at least one, at most two.
  const needShared = Math.max(1, Math.min(2, Math.ceil(Math.min(ta.size, tb.size) / 3)));
  if (shared < needShared || subject < VERDICT_SUBJECT) return null;
  if (!sameNames(a, b)) return null;

  const numeric = subject >= SAME_SUBJECT && shared >= 2 ? numericDisagreement(a, b) : null;
  if (numeric) return { kind: 'numeric', detail: numeric };

  const ya = years(a);
  const yb = years(b);
  if (ya.length && yb.length && !ya.some((y) => yb.includes(y)) && jaccard(ta, tb) >= 0.6 && shared >= 3) {
    return { kind: 'date', detail: `${ya.join(', ')} ≠ ${yb.join(', ')}` };
  }

  if (negated(a) !== negated(b)) {
    return { kind: 'negation', detail: negated(a) ? NEGATION_FIRST : NEGATION_SECOND };
  }

  const wa = new Set(words(a));
  const wb = new Set(words(b));
  for (const w of wa) {
    const opposite = OPPOSITE_INDEX.get(w);
    if (!opposite || wb.has(w)) continue;
    const hit = opposite.find((o) => wb.has(o) && !wa.has(o));
    if (hit) return { kind: 'opposite_verdict', detail: `${w} ≠ ${hit}` };
  }
  return null;
}
