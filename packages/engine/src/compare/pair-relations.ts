import type { SlicedWork } from '@research/core';
import { Statement, VERDICT_SUBJECT, contradictionBetween, type Contradiction } from './contradiction';
import type { ClaimInput } from './graph-inputs';
import { UnionFind } from './union-find';
import { namedEntities } from '../text/names';
import { overlapCount, termSet } from '../text/tokens';

/** Claims of different sources state the same proposition at this term overlap (Jaccard)... */
export const SAME_PROPOSITION = 0.5;
/** ...or when one holds this share of the other's terms (then the longer one refines the shorter). */
export const REFINES_CONTAINMENT = 0.8;
// These two and COPIED_TEXT (copies.ts) swept on the contradiction tune part (17 disputed claims, 40 controls; without a
// model and with the judging one) and on the saved multihop tune runs (`--replay`): SAME_PROPOSITION 0.4 / 0.6,
// REFINES_CONTAINMENT 0.7 / 0.9 and COPIED_TEXT 0.3 / 0.7 leave every figure as it is (recall 1/17 and 12/17, false
// alarms 5/40 and 4/40; answers in report 239 / 166 / 26), but for SAME_PROPOSITION 0.4, one HotpotQA answer fewer.
// What they decide (which statements corroborate, which pages copy) no evaluation counts; they stand by their reasons.
/**
 * Every relation needs at least this share of the shorter claim's terms in the other (a contradiction
 * VERDICT_SUBJECT; the same proposition and refinement more), so pairs that cannot reach it are not
 * compared.
 */
export const MIN_RELATED_SHARE = Math.min(VERDICT_SUBJECT, SAME_PROPOSITION, REFINES_CONTAINMENT);

export type RelationKind = 'supports' | 'refines' | 'contradicts';

export interface ClaimRelation {
  a: string;
  b: string;
  kind: RelationKind;
  contradiction?: Contradiction;
}

/** Each claim as a Statement, with its terms read now (the costly part, so it is sliced here). */
export function* claimStatements(
  claims: readonly ClaimInput[],
): SlicedWork<{ statements: Statement[]; terms: Array<Set<string>>; names: Array<Set<string>> }> {
  const statements: Statement[] = [];
  const terms: Array<Set<string>> = [];
  const names: Array<Set<string>> = [];
  for (const c of claims) {
    const statement = new Statement(c.claim_text);
    statements.push(statement);
    terms.push(statement.terms);
    names.push(nameTerms(c.claim_text));
    if (terms.length % 64 === 0) yield;
  }
  return { statements, terms, names };
}

/** The words of the names a claim gives (runs of capitalised words, quoted titles). */
function nameTerms(text: string): Set<string> {
  const out = new Set<string>();
  for (const name of namedEntities(text)) for (const t of termSet(name, false)) out.add(t);
  return out;
}

/**
 * Whether two claims can be about the same subject: when both name things, the names of one must all be
 * among the other's ("Obama" and "Barack Obama" may; "Madtown" and "Winner", each a boy group formed by a
 * label, may not). Claims about different subjects neither state the same proposition nor contradict each
 * other, however many words they share.
 */
function sameSubjects(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size === 0 || b.size === 0) return true;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const t of small) if (!large.has(t)) return false;
  return true;
}

/** What comparing the candidate pairs found, by claim position. */
export interface Comparison {
  /** Claims joined by supports (the same proposition). */
  uf: UnionFind;
  relations: ClaimRelation[];
  contradicting: Array<[number, number, Contradiction]>;
  /** [general, specific] */
  refining: Array<[number, number]>;
}

/** Relates each candidate pair (i, j) of `later`, in (i, j) order: contradicts, supports or refines. */
export function* compareClaims(read: ReadClaims, later: readonly number[][]): SlicedWork<Comparison> {
  const { claims } = read;
  const found: Comparison = { uf: new UnionFind(claims.length), relations: [], contradicting: [], refining: [] };
  let compared = 0;
  for (let i = 0; i < claims.length; i++) {
    for (const j of later[i]!) {
      if (++compared % 256 === 0) yield;
      relatePair(read, i, j, found);
    }
  }
  return found;
}

/** The claims in comparison order, each as a Statement and its terms. */
export interface ReadClaims {
  claims: readonly ClaimInput[];
  statements: readonly Statement[];
  terms: ReadonlyArray<Set<string>>;
  /** The words of each claim's names (nameTerms). */
  names: ReadonlyArray<Set<string>>;
}

function relatePair({ claims, statements, terms, names }: ReadClaims, i: number, j: number, found: Comparison): void {
  const a = claims[i]!;
  const b = claims[j]!;
  const ti = terms[i]!;
  const tj = terms[j]!;
  if (!sameSubjects(names[i]!, names[j]!)) return;
  const shared = overlapCount(ti, tj);
  const contradiction = contradictionBetween(statements[i]!, statements[j]!, shared);
  if (contradiction) {
    found.relations.push({ a: a.id, b: b.id, kind: 'contradicts', contradiction });
    found.contradicting.push([i, j, contradiction]);
    return;
  }
  // Jaccard and containment of the two term sets (as in text/tokens), from the one count.
  const smaller = Math.min(ti.size, tj.size);
  if (shared / (ti.size + tj.size - shared) >= SAME_PROPOSITION) {
    found.relations.push({ a: a.id, b: b.id, kind: 'supports' });
    found.uf.union(i, j);
  } else if (shared / smaller >= REFINES_CONTAINMENT && shared >= 3) {
    // The one with more terms adds detail to the other.
    const [general, specific] = ti.size <= tj.size ? [i, j] : [j, i];
    found.relations.push({ a: claims[specific]!.id, b: claims[general]!.id, kind: 'refines' });
    found.refining.push([general, specific]);
  }
}
