import { OPPOSITES, languageProfile } from '../text/language';
import { containment, overlapCount, quantities, termSet, words, years, type Quantity } from '../text/tokens';
import { measures, measuresAgree } from '../text/measures';
import { denialBetween, read, type Reading, type StanceCue } from './stance';

/**
 * Why two claims disagree. `stance` is only a dispute over the question's proposition that the language
 * model judged without a cue the words show (see compare/stance-disputes.ts).
 */
export type ContradictionKind = StanceCue;

export interface Contradiction {
  kind: ContradictionKind;
  /** What each side says that the other denies (the disagreeing numbers or words). */
  detail: string;
  /**
   * Set when the two claims disagree about the proposition of the run's question (one supports it, the
   * other refutes it; see compare/stance.ts) rather than about each other: the proposition.
   */
  proposition?: string;
}

/** Two statements are about the same subject when this share of the smaller one's terms is shared. */
export const SAME_SUBJECT = 0.5;
/**
 * Negation and opposite verdicts need less shared wording: the verdict word itself differs. Swept on the
 * contradiction parts (recall / false alarms; without a model, then with the judging one): tune 0.25: 6/17, 7/40 and
 * 14/17, 6/40; 0.3: judge 13/17, 4/40; 0.34: 1/17, 5/40 and 12/17, 4/40; 0.4 and 0.45: 1/17, 5/40 and 12/17, 3/40; 0.5:
 * 1/17, 4/40 and 12/17, 2/40; 0.6: 1/17, 4/40 and 12/17, 2/40. Check at 0.5 as at 0.34 (2/19, 1/25 and 13/19, 1/25),
 * at 0.6 1/19, 0/25 and 12/19, 0/25: fewer false alarms on tune only. SAME_SUBJECT 0.4 / 0.6: tune unchanged.
 */
export const VERDICT_SUBJECT = 0.34;
/**
 * Two statements' numbers are set against each other only when the statements say the same thing otherwise: this
 * share of their terms in common (Jaccard, numbers left out). Sentences about one subject give different numbers
 * for different periods, scenarios and places ("since 1900 … 16–21 cm" and "since the last glacial maximum … more
 * than 125 metres"); read by words alone, those were most disagreements of a run. Swept on the contradiction
 * tune part (17 disputed claims, 40 controls; recall / false alarms, without a model and with the judging one):
 * none 3/17, 6/40 and 11/17, 6/40; 0.2 and 0.25: 2/17, 5/40 and 11/17, 6/40; 0.3 and 0.4: 1/17, 3/40 and 10/17,
 * 4/40; 0.5 and 0.6: 1/17, 3/40 and 10/17, 3/40.
 */
export const NUMERIC_LIKENESS = 0.5;
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
function sameNames(na: ReadonlySet<string>, nb: ReadonlySet<string>): boolean {
  if (na.size === 0 || nb.size === 0) return true;
  return containment(na, nb) >= 0.5;
}

function countDisagreement(qa: readonly Quantity[], qb: readonly Quantity[]): string | null {
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

/**
 * Two statements' quantities that disagree. Measures (a length, a mass, a share, a temperature) are compared
 * as the stance judge compares them: across units, as ranges and bounds, and agreeing within the rounding
 * of measuresAgree ("about 110 metres" and "about 120 metres lower" agree); other counts ("35 species")
 * disagree beyond NUMERIC_TOLERANCE. Either way a value that agrees with one of the other's is no
 * contradiction ("20 cm … and later 35 cm" against "35 cm").
 */
function numericDisagreement(a: Statement, b: Statement): string | null {
  const ma = a.reading.measures;
  const mb = b.reading.measures;
  for (const x of ma) {
    const same = mb.filter((y) => y.dimension === x.dimension);
    if (same.length === 0 || same.some((y) => measuresAgree(x, y))) continue;
    if (same.every((y) => ma.some((z) => z.dimension === y.dimension && measuresAgree(z, y)))) continue;
    return `${x.text} ≠ ${same.map((y) => y.text).join(', ')}`;
  }
  return countDisagreement(a.counts, b.counts);
}

/** The `detail` codes of a negation contradiction (the report words them in the run's language). */
export const NEGATION_FIRST = 'first denies';
export const NEGATION_SECOND = 'second denies';

/**
 * The contradiction detector of the compare step, for two statements of different sources:
 * - numeric: both state a quantity of the same kind and no value agrees (see numericDisagreement), and they say the
 *   same thing otherwise (NUMERIC_LIKENESS);
 * - date: both name years, none in common, and the statements are near-identical otherwise;
 * - negation: one is negated, the other not, about the same subject;
 * - opposite verdict: one holds a word and the other its opposite (rises/falls, safe/dangerous).
 * Every rule first requires a shared subject (numbers and dates: SAME_SUBJECT of the smaller statement's
 * terms shared, numbers left out; verdicts: VERDICT_SUBJECT), so statements about different things
 * do not contradict. Precision is preferred to recall: a flagged contradiction lands in the report.
 */
export function detectContradiction(a: string, b: string): Contradiction | null {
  return contradictionBetween(new Statement(a), new Statement(b));
}

/**
 * What the detector reads of one statement, each part worked out on first use and kept: a run's
 * comparison meets every claim in many pairs, and reads most pairs no further than their terms.
 */
export class Statement {
  private cache: {
    terms?: Set<string>;
    names?: Set<string>;
    negated?: boolean;
    years?: number[];
    counts?: Quantity[];
    words?: Set<string>;
    reading?: Reading;
  } = {};

  constructor(
    readonly text: string,
    terms?: Set<string>,
  ) {
    if (terms) this.cache.terms = terms;
  }

  /** Stemmed content terms, numbers left out (what "the same subject" is measured on). */
  get terms(): Set<string> {
    return (this.cache.terms ??= termSet(this.text, false));
  }
  get names(): Set<string> {
    return (this.cache.names ??= names(this.text));
  }
  get negated(): boolean {
    return (this.cache.negated ??= negated(this.text));
  }
  get years(): number[] {
    return (this.cache.years ??= years(this.text));
  }
  /** Its quantities that are not measures (counted things: "35 species"); measures are in its reading. */
  get counts(): Quantity[] {
    return (this.cache.counts ??= quantities(this.text).filter((q) => measures(q.text, () => 0).length === 0));
  }
  get words(): Set<string> {
    return (this.cache.words ??= new Set(words(this.text)));
  }
  /** Its words with their negation scopes, as the stance judge reads them. */
  get reading(): Reading {
    return (this.cache.reading ??= read(this.text));
  }
}

/** One statement denies what the other affirms: a negation somewhere in one of them is not enough. */
function negationBetween(a: Statement, b: Statement): Contradiction | null {
  if (a.negated === b.negated) return null;
  const denier = denialBetween(a.reading, b.reading);
  return denier ? { kind: 'negation', detail: denier === 'first' ? NEGATION_FIRST : NEGATION_SECOND } : null;
}

/**
 * detectContradiction over statements whose parts may already be worked out; `shared` is the number of
 * terms they share when the caller has counted it.
 */
export function contradictionBetween(
  a: Statement,
  b: Statement,
  shared = overlapCount(a.terms, b.terms),
): Contradiction | null {
  const ta = a.terms;
  const tb = b.terms;
  const smaller = Math.min(ta.size, tb.size);
  // As containment(ta, tb), without counting the shared terms again.
  const subject = smaller === 0 ? 0 : shared / smaller;
  // Short statements share fewer words: a third of the shorter one's terms, at least one, at most two.
  const needShared = Math.max(1, Math.min(2, Math.ceil(smaller / 3)));
  if (shared < needShared || subject < VERDICT_SUBJECT) return null;
  if (!sameNames(a.names, b.names)) return null;

  const likeness = shared / (ta.size + tb.size - shared);
  const numeric =
    subject >= SAME_SUBJECT && shared >= 2 && likeness >= NUMERIC_LIKENESS ? numericDisagreement(a, b) : null;
  if (numeric) return { kind: 'numeric', detail: numeric };

  const ya = a.years;
  const yb = b.years;
  if (ya.length && yb.length && !ya.some((y) => yb.includes(y)) && likeness >= 0.6 && shared >= 3) {
    return { kind: 'date', detail: `${ya.join(', ')} ≠ ${yb.join(', ')}` };
  }

  const negation = negationBetween(a, b);
  if (negation) return negation;

  const wa = a.words;
  const wb = b.words;
  for (const w of wa) {
    const opposite = OPPOSITE_INDEX.get(w);
    if (!opposite || wb.has(w)) continue;
    const hit = opposite.find((o) => wb.has(o) && !wa.has(o));
    if (hit) return { kind: 'opposite_verdict', detail: `${w} ≠ ${hit}` };
  }
  return null;
}
