import type { ClaimStance } from '@research/core';
import { antonymsOf } from '../text/antonyms';
import { STOPWORDS, languageProfile } from '../text/language';
import { measures, measuresAgree, UNIT_WORDS, type Measure } from '../text/measures';
import { stem, years } from '../text/tokens';

/** What a claim says of the proposition the run's question asks about. */
export type Stance = ClaimStance;

/**
 * Why a claim refutes the proposition, and the kinds of contradiction between claims (contradiction.ts reads claims
 * with this module, so the kinds live here: the two modules import one way only).
 */
export type StanceCue = 'numeric' | 'date' | 'negation' | 'opposite_verdict' | 'direction' | 'stance';

export interface StanceJudgement {
  stance: Stance;
  /** Share of the subject terms of the shorter of proposition and claim that the other holds (0..1). */
  relevance: number;
  cue?: StanceCue;
  /** The words that decided a refutation, as the sources wrote them ("not … linked", "rose ≠ fell"). */
  detail?: string;
}

interface Token {
  /** Lower-cased word as written. */
  word: string;
  /** Stemmed content term, or '' for stopwords, numbers and short words. */
  term: string;
  /** Clause number: punctuation and clause-opening conjunctions start a new one. */
  clause: number;
  /** Inside the scope of a negation of its clause. */
  negated: boolean;
  /** Character offset in the text. */
  offset: number;
}

/** Words that open a new clause: a negation before them does not reach past them. */
const CLAUSE_BREAK = new Set(
  (
    'but although though while whereas however yet because which who whose where when if unless since ' +
    'aber obwohl während weil mais pero ma'
  ).split(' '),
);

/** Words that deny what follows them in their clause (English; other languages through their profiles). */
const EN_NEGATION = new Set(
  (
    'not no never none nothing nobody neither nor cannot without hardly barely scarcely ' +
    'lack lacks lacked lacking fail fails failed unable deny denies denied denying refute refutes refuted ' +
    'retract retracts retracted reject rejects rejected dismiss dismisses dismissed debunk debunks debunked ' +
    'disprove disproves disproved'
  ).split(' '),
);
const OTHER_NEGATION = (['de', 'fr', 'es', 'it'] as const).map((l) => languageProfile(l).negation);

function isNegation(word: string): boolean {
  if (EN_NEGATION.has(word) || /n['’]t$/u.test(word)) return true;
  return OTHER_NEGATION.some((re) => re.test(word));
}

/** A negation denies at most this many words after it (the rest of its clause otherwise). */
const NEGATION_REACH = 10;

/** Words a negation passes over to reach what it denies ("does not seem to depend", "no longer shrinking"). */
const PASSED_OVER = new Set(
  'seem seems seemed appear appears appeared actually really necessarily longer yet always'.split(' '),
);
/**
 * Words of evidence and their qualifiers: a negation of them denies their whole clause ("there is no
 * actual evidence that X rises" denies that X rises).
 */
const EVIDENCE = new Set(
  (
    'evidence proof sign signs indication indications reason reasons known actual real significant statistical ' +
    'scientific clear convincing'
  ).split(' '),
);

function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let clause = 0;
  let negatedUntil = -1;
  // Square brackets are an editor's insertions into a quote ("[Ice] is expanding"): they break nothing.
  const pattern = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?|[.,;:!?()"“”„«»—–&]/gu;
  for (const m of text.matchAll(pattern)) {
    const raw = m[0];
    if (!/[\p{L}\p{N}]/u.test(raw)) {
      clause++;
      negatedUntil = -1;
      continue;
    }
    const word = raw.toLowerCase();
    if (CLAUSE_BREAK.has(word)) {
      clause++;
      negatedUntil = -1;
    }
    if (isNegation(word)) {
      negatedUntil = out.length + NEGATION_REACH;
      out.push({ word, term: '', clause, negated: false, offset: m.index });
      continue;
    }
    const content = !STOPWORDS.has(word) && word.length >= 3 && !/^\p{N}+$/u.test(word);
    out.push({
      word,
      term: content ? stem(word) : '',
      clause,
      negated: out.length <= negatedUntil,
      offset: m.index,
    });
  }
  return out;
}

/** The index of the word at a character offset (the last one that starts at or before it). */
function wordAt(tokens: Token[], offset: number): number {
  let lo = 0;
  let hi = tokens.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (tokens[mid]!.offset <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Direction of change: +1 for words of growth, -1 for words of decline. */
const DIRECTION = new Map<string, number>();
for (const w of (
  'increase increases increased increasing rise rises rising rose risen grow grows growing grew grown growth ' +
  'gain gains gained gaining expand expands expanded expanding expansion accelerate accelerates accelerated ' +
  'accelerating acceleration higher greater larger bigger thicker surge surged soar soared ' +
  'climb climbs climbed climbing exceed exceeds exceeded upward strengthen strengthened thicken thickening ' +
  'steigt gestiegen zunahme wachstum höher augmente hausse aumenta aumento'
).split(' '))
  DIRECTION.set(w, 1);
for (const w of (
  'decrease decreases decreased decreasing decline declines declined declining fall falls falling fell fallen ' +
  'drop drops dropped dropping shrink shrinks shrinking shrank shrunk loss losses lose loses losing lost reduce ' +
  'reduces reduced reducing reduction lower smaller thinner slow slows slowed slowing slowdown ' +
  'retreat retreats retreated retreating melt melts melted melting thinning diminish diminished diminishing ' +
  'weaken weakened contract contracted contracting downward ' +
  'sinkt gesunken abnahme rückgang niedriger diminue baisse disminuye diminuzione'
).split(' '))
  DIRECTION.set(w, -1);

/** Superlatives and record words: a record is held once, so two years for one record disagree. */
const RECORD = new Set(
  (
    'warmest hottest coldest coolest wettest driest highest lowest largest smallest biggest greatest strongest ' +
    'weakest fastest slowest longest shortest deepest oldest youngest earliest worst best first record'
  ).split(' '),
);

/** A proposition as the judge reads it: the question's statement. */
export interface Proposition {
  text: string;
  /** Subject terms: the stemmed content terms of the statement. */
  terms: Set<string>;
  reading: Reading;
}

/** What the judge reads of a text: its words, terms, quantities and years. */
export interface Reading {
  tokens: Token[];
  terms: Set<string>;
  lemmas: Set<string>;
  measures: Measure[];
  years: number[];
}

/** A text as the stance judge reads it (worked out once per text). */
export function read(text: string): Reading {
  const tokens = tokenize(text);
  return {
    tokens,
    terms: new Set(tokens.map((t) => t.term).filter(Boolean)),
    lemmas: new Set(tokens.flatMap((t) => lemmas(t.word))),
    measures: measures(text, (offset) => wordAt(tokens, offset)),
    years: years(text),
  };
}

const QUESTION_WORD =
  /^(what|which|who|whom|whose|when|where|why|how|was|wer|wen|wem|wessen|wo|wann|warum|wieso|weshalb|wie|welche[rsmn]?|que|quoi|qui|quand|où|pourquoi|comment|quel(le)?s?|qué|quién(es)?|cuándo|dónde|por|cómo|cuál(es)?|cuánto|che|chi|quando|dove|perché|come|quale|quali|quanto)\b/iu;
const AUXILIARY = /^(is|are|was|were|does|do|did|can|could|will|would|should|has|have|had|may|might|must|shall)\s+/iu;

/**
 * The proposition a run's question asks about, or null when it states none: a statement is its own
 * proposition; a yes/no question ("Is X rising?") is read as its statement without the auxiliary ("X
 * rising"); a question asking for something ("What causes X?") proposes nothing to agree or disagree with.
 * A proposition needs at least two subject terms.
 */
export function propositionOf(question: string): Proposition | null {
  let text = question.trim();
  if (/[?？]\s*$/u.test(text)) {
    text = text.replace(/[?？]\s*$/u, '').trim();
    if (QUESTION_WORD.test(text)) return null;
    text = text.replace(AUXILIARY, '');
  }
  const reading = read(text);
  if (reading.terms.size < 2) return null;
  return { text, terms: reading.terms, reading };
}

/**
 * The least share of the shorter text's subject terms the other must hold for a claim to take a stance
 * (the bar of VERDICT_SUBJECT that two claims pass before a verdict of one contradicts the other).
 */
export const STANCE_RELEVANCE = 0.34;
/** ...and the least number of shared terms. */
export const STANCE_MIN_SHARED = 2;
/** Words around a term that a direction word or an opposite describes. */
// STANCE_RELEVANCE, STANCE_MIN_SHARED, NEAR, NEGATION_REACH and HEAD_WORDS swept on the contradiction tune part
// (recall / false alarms without a model; with the judging model, whose stance they do not decide, unchanged but
// for HEAD_WORDS): STANCE_RELEVANCE 0.25: 2/17, 6/40, 0.34: 1/17, 5/40, 0.5: 0/17, 4/40; STANCE_MIN_SHARED 1 or 3: as
// 2; NEAR 2: 1/17, 4/40, 6: as 4; NEGATION_REACH 5 or 15: as 10; HEAD_WORDS 1: 1/17, 5/40 (judge 12/17, 3/40), 3:
// 1/17, 6/40 (judge 12/17, 5/40), 2: judge 12/17, 4/40. On check NEAR 2 is as 4 (2/19, 1/25; judge 13/19, 1/25) and
// HEAD_WORDS 1 loses a catch (1/19, 1/25; judge 12/19, 1/25).
const NEAR = 4;

/** Dictionary forms a word may be an inflection of (increasing → increase, cities → city). */
function lemmas(word: string): string[] {
  const out = [word];
  const add = (w: string) => {
    if (w.length >= 3 && !out.includes(w)) out.push(w);
  };
  if (word.endsWith('ies')) add(word.slice(0, -3) + 'y');
  if (word.endsWith('es')) add(word.slice(0, -2));
  if (word.endsWith('s') && !word.endsWith('ss')) add(word.slice(0, -1));
  for (const suffix of ['ed', 'ing', 'er', 'est']) {
    if (!word.endsWith(suffix)) continue;
    const base = word.slice(0, -suffix.length);
    add(base);
    add(base + 'e');
    if (base.length > 2 && base.at(-1) === base.at(-2)) add(base.slice(0, -1));
    if (base.endsWith('i')) add(base.slice(0, -1) + 'y');
  }
  return out;
}

/** The signed directions of change said of the word at `i` (its neighbours in its clause). */
function directionsNear(tokens: Token[], i: number, skip: (t: Token) => boolean): Map<number, string> {
  const out = new Map<number, string>();
  for (let j = Math.max(0, i - NEAR); j <= Math.min(tokens.length - 1, i + NEAR); j++) {
    const t = tokens[j]!;
    if (j === i || t.clause !== tokens[i]!.clause || skip(t)) continue;
    const d = DIRECTION.get(t.word);
    if (d) out.set(t.negated ? -d : d, t.word);
  }
  return out;
}

/** The one direction of change a text says of a term (over all its mentions), or null when none or both. */
function directionOf(tokens: Token[], term: string, skip: (t: Token) => boolean): [number, string] | null {
  const all = new Map<number, string>();
  tokens.forEach((t, i) => {
    if (t.term === term) for (const [d, w] of directionsNear(tokens, i, skip)) all.set(d, w);
  });
  return all.size === 1 ? [...all][0]! : null;
}

/** Opposite directions of change for a shared term ("sea ice is growing" against "sea ice declined"). */
function directionRefutes(p: Reading, c: Reading, shared: Set<string>): string | null {
  // A direction word both texts use is part of what they share ("sea level rise"), not a difference.
  const inBoth = (t: Token) => lemmas(t.word).some((l) => p.lemmas.has(l) && c.lemmas.has(l));
  // ...and a direction word near one both use describes that change, not the term ("melting was higher").
  const describesShared = (tokens: Token[], term: string) =>
    tokens.some((t, i) => t.term === term && directionsNear(tokens, i, (x) => !inBoth(x)).size > 0);
  for (const term of shared) {
    if (describesShared(p.tokens, term) || describesShared(c.tokens, term)) continue;
    const pd = directionOf(p.tokens, term, inBoth);
    const cd = pd && directionOf(c.tokens, term, inBoth);
    if (pd && cd && pd[0] === -cd[0]) return `${pd[1]} ≠ ${cd[1]}`;
  }
  return null;
}

function oppositesOf(word: string): Set<string> {
  const out = new Set<string>();
  for (const lemma of lemmas(word)) for (const o of antonymsOf(lemma)) out.add(o);
  return out;
}

/** An opposite word said of a shared term in each text ("the reef is resilient" against "less resilient"). */
function antonymRefutes(p: Reading, c: Reading, shared: Set<string>): string | null {
  for (const [i, t] of c.tokens.entries()) {
    if (!t.term || shared.has(t.term) || lemmas(t.word).some((l) => p.lemmas.has(l))) continue;
    for (const o of oppositesOf(t.word)) {
      if (c.lemmas.has(o)) continue;
      const k = p.tokens.findIndex((x) => lemmas(x.word).includes(o));
      if (k < 0 || p.tokens[k]!.negated !== t.negated) continue;
      const describes = (tokens: Token[], at: number) =>
        tokens.some((x, j) => Math.abs(j - at) <= NEAR && x.clause === tokens[at]!.clause && shared.has(x.term));
      if (describes(c.tokens, i) && describes(p.tokens, k)) return `${p.tokens[k]!.word} ≠ ${t.word}`;
    }
  }
  return null;
}

/** Content words a negation's head may be among ("not be interpreted as support for" denies support). */
const HEAD_WORDS = 2;

/**
 * What each negation of a text denies: its first `headWords` content terms, past hedges; or, when it
 * denies evidence or a sign of something ("no actual evidence that X rises"), everything after (null).
 */
function deniedHeads(tokens: Token[], headWords: number): Array<Set<string> | null> {
  const out: Array<Set<string> | null> = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.term || !isNegation(tokens[i]!.word)) continue;
    const heads = new Set<string>();
    let light = false;
    for (let j = i + 1; j < tokens.length && tokens[j]!.negated && heads.size < headWords; j++) {
      const t = tokens[j]!;
      if (!t.term || PASSED_OVER.has(t.word)) continue;
      if (EVIDENCE.has(t.word)) light = heads.size === 0 ? true : light;
      else heads.add(t.term);
    }
    out.push(light ? null : heads);
  }
  return out;
}

/**
 * Which of two texts denies what the other affirms: the first term a negation of it denies is a shared
 * term the other affirms (never denies), and at least one more shared term is in the negation's scope
 * in the one and affirmed in the other. With the terms that flip.
 */
function denial(
  a: Reading,
  b: Reading,
  shared: Set<string>,
  firstHeadWords = HEAD_WORDS,
): { by: 'first' | 'second'; terms: string[] } | null {
  const denies = (x: Reading, y: Reading, headWords: number) => {
    const negated = new Set(x.tokens.filter((t) => t.negated && t.term).map((t) => t.term));
    const affirmed = new Set(x.tokens.filter((t) => !t.negated && t.term).map((t) => t.term));
    const yNegated = new Set(y.tokens.filter((t) => t.negated && t.term).map((t) => t.term));
    const yAffirmed = new Set(y.tokens.filter((t) => !t.negated && t.term).map((t) => t.term));
    const flipped = [...shared].filter(
      (t) => negated.has(t) && !affirmed.has(t) && yAffirmed.has(t) && !yNegated.has(t),
    );
    // Beside a denied head, a second flipped term or a subject both affirm ("the man is not sleeping");
    // a denied piece of evidence denies its whole clause, so two flipped terms there.
    const subject = [...shared].some((t) => affirmed.has(t) && yAffirmed.has(t) && !negated.has(t));
    const found = deniedHeads(x.tokens, headWords).some((heads) =>
      heads === null
        ? flipped.length >= 2
        : [...heads].some((h) => flipped.includes(h)) && (flipped.length >= 2 || subject),
    );
    return found ? flipped : null;
  };
  const byFirst = denies(a, b, firstHeadWords);
  if (byFirst) return { by: 'first', terms: byFirst };
  const bySecond = denies(b, a, HEAD_WORDS);
  return bySecond ? { by: 'second', terms: bySecond } : null;
}

function negationRefutes(p: Reading, c: Reading, shared: Set<string>): string | null {
  // A negated proposition's scope runs on over its subject ("did not approve the new tram line"): only
  // its first content word is its head, and a claim must affirm that and two more of its denied terms.
  const found = denial(p, c, shared, 1);
  if (!found) return null;
  if (found.by === 'first' && found.terms.length < 3) return null;
  return found.by === 'second' ? `not ${found.terms.join(', ')}` : found.terms.join(', ');
}

/**
 * Which of two statements denies what the other affirms (see denial), for the comparison of claims:
 * 'first', 'second' or null.
 */
export function denialBetween(a: Reading, b: Reading): 'first' | 'second' | null {
  return denial(a, b, new Set([...a.terms].filter((t) => b.terms.has(t))))?.by ?? null;
}

/** Subject terms around a quantity (its clause, a few words either side), its unit words left out. */
function around(tokens: Token[], at: number): Set<string> {
  const out = new Set<string>();
  for (let j = Math.max(0, at - 6); j <= Math.min(tokens.length - 1, at + 6); j++) {
    const t = tokens[j]!;
    if (t.term && t.clause === tokens[at]!.clause && !UNIT_WORDS.has(t.word)) out.add(t.term);
  }
  return out;
}

/**
 * A quantity of the proposition that the claim states otherwise: same dimension, about the same thing
 * (a shared term near both numbers), and no quantity of the claim of that dimension agrees with it.
 */
function numericRefutes(p: Reading, c: Reading, shared: Set<string>): string | null {
  // Statements dated to different years measure different things (a forecast for 2050 and one for 2100).
  if (p.years.length > 0 && c.years.length > 0 && !p.years.some((y) => c.years.includes(y))) return null;
  for (const mp of p.measures) {
    const same = c.measures.filter((mc) => mc.dimension === mp.dimension);
    if (same.length === 0 || same.some((mc) => measuresAgree(mp, mc))) continue;
    const subject = new Set([...around(p.tokens, mp.at)].filter((t) => shared.has(t)));
    // The claim's quantity must be about the same thing, and agree with none of the proposition's either;
    // a quantity of an opposite change is another change ("dropped 120 m" and "may rise 2 feet").
    const pDirection = directionsNear(p.tokens, mp.at, () => false);
    const other = same.find(
      (mc) =>
        [...around(c.tokens, mc.at)].filter((t) => subject.has(t)).length >= 2 &&
        !p.measures.some((x) => x.dimension === mc.dimension && measuresAgree(x, mc)) &&
        ![...directionsNear(c.tokens, mc.at, () => false).keys()].some((d) => pDirection.has(-d)),
    );
    if (other) return `${mp.text} ≠ ${other.text}`;
  }
  return null;
}

/** The same record word in both with different years ("1998 was the warmest year" against "2016 was"). */
function dateRefutes(p: Reading, c: Reading): string | null {
  if (p.years.length === 0 || c.years.length === 0 || p.years.some((y) => c.years.includes(y))) return null;
  const record = p.tokens.find((t) => RECORD.has(t.word) && c.tokens.some((x) => x.word === t.word));
  return record ? `${record.word}: ${p.years.join(', ')} ≠ ${c.years.join(', ')}` : null;
}

/**
 * The stance of a claim toward a proposition, read from words alone. The claim must share at least
 * STANCE_MIN_SHARED subject terms with it, and STANCE_RELEVANCE of the shorter one's terms, to take any.
 * It refutes the proposition when one of them denies what the other affirms (negationRefutes), when they
 * state a different quantity or record year for the same thing, when they give a shared term opposite
 * directions of change or opposite words; otherwise it supports it.
 */
export function judgeStance(proposition: Proposition, claimText: string): StanceJudgement {
  const p = proposition.reading;
  const c = read(claimText);
  const shared = new Set([...c.terms].filter((t) => p.terms.has(t)));
  const relevance = shared.size / Math.max(1, Math.min(p.terms.size, c.terms.size));
  if (shared.size < STANCE_MIN_SHARED || relevance < STANCE_RELEVANCE) return { stance: 'neutral', relevance };
  const cues: Array<[StanceCue, () => string | null]> = [
    ['negation', () => negationRefutes(p, c, shared)],
    ['numeric', () => numericRefutes(p, c, shared)],
    ['date', () => dateRefutes(p, c)],
    ['direction', () => directionRefutes(p, c, shared)],
    ['opposite_verdict', () => antonymRefutes(p, c, shared)],
  ];
  for (const [cue, refutes] of cues) {
    const detail = refutes();
    if (detail) return { stance: 'refutes', relevance, cue, detail };
  }
  return { stance: 'supports', relevance };
}
