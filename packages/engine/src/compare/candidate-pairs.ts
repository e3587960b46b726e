import type { SlicedWork } from '@research/core';
import type { ClaimInput } from './graph-inputs';
import { MIN_RELATED_SHARE } from './pair-relations';

/**
 * Claims are compared only with claims that share terms with them, found through an index of terms.
 * A term proposes at most the TERM_CANDIDATES nearest earlier claims that hold it: a word most of a
 * large run's claims use says little about which of them state the same thing.
 */
const TERM_CANDIDATES = 512;
/**
 * Pairs of claims one comparison compares at most (32 per claim of a full run). Below it every pair that
 * may relate is compared; above, each claim keeps its likeliest partners (see candidatePairs).
 */
export const MAX_COMPARED_PAIRS = 64_000;
/** Partners each claim keeps at least, however many claims there are (so copies still cluster). */
const MIN_PARTNERS_PER_CLAIM = 8;

/**
 * Calls `visit(j, ranks, count)` for each claim j with its earlier partners: claims of other sources
 * found through the term index whose shared terms may reach MIN_RELATED_SHARE. Each partner i is one
 * number in `ranks[0..count)`, packed so that a plain numeric sort ranks the likeliest first: the share
 * of the shorter claim's terms counted (relations are decided on it), then the nearest.
 */
function* eachClaimsPartners(
  claims: readonly ClaimInput[],
  terms: ReadonlyArray<ReadonlySet<string>>,
  visit: (j: number, ranks: Float64Array, count: number) => void,
): SlicedWork<void> {
  const n = claims.length;
  const postings = new Map<string, number[]>();
  const shared = new Int32Array(n);
  const ranks = new Float64Array(n);
  const touched: number[] = [];
  // Sources as small numbers: the innermost loop compares them for every holder it reads.
  const sourceNumbers = new Map<string, number>();
  const sourceOf = Int32Array.from(claims, (c) => {
    let k = sourceNumbers.get(c.source_id);
    if (k === undefined) sourceNumbers.set(c.source_id, (k = sourceNumbers.size));
    return k;
  });
  for (let j = 0; j < n; j++) {
    const source = sourceOf[j]!;
    // Terms of claim j whose holders were not all read: a pair may share them without being counted.
    let unread = 0;
    for (const term of terms[j]!) {
      let holders = postings.get(term);
      if (!holders) postings.set(term, (holders = []));
      const stop = Math.max(0, holders.length - TERM_CANDIDATES);
      if (stop > 0) unread++;
      for (let k = holders.length - 1; k >= stop; k--) {
        const i = holders[k]!;
        if (sourceOf[i] === source) continue;
        if (shared[i]++ === 0) touched.push(i);
      }
      holders.push(j);
    }
    let count = 0;
    for (const i of touched) {
      const smaller = Math.min(terms[i]!.size, terms[j]!.size);
      if (Math.min(smaller, shared[i]! + unread) / smaller >= MIN_RELATED_SHARE) {
        ranks[count++] = Math.floor((shared[i]! / smaller) * 1e6) * n + i;
      }
      shared[i] = 0;
    }
    touched.length = 0;
    visit(j, ranks, count);
    yield;
  }
}

/**
 * The most partners each claim may keep so that all claims together keep at most `budget`: every claim
 * keeps all its partners when they fit, else the claims with most give up their least likely ones.
 */
function partnersPerClaim(counts: Int32Array, budget: number): number {
  const sorted = Int32Array.from(counts).sort();
  let left = budget;
  for (let k = 0; k < sorted.length; k++) {
    const claimsLeft = sorted.length - k;
    if (sorted[k]! * claimsLeft > left) return Math.max(MIN_PARTNERS_PER_CLAIM, Math.floor(left / claimsLeft));
    left -= sorted[k]!;
  }
  return Infinity;
}

/**
 * The pairs of claims worth comparing, as `later[i]`: the claims after claim i (ascending) to compare
 * it with. While the run has at most MAX_COMPARED_PAIRS pairs that may relate and no term is held by
 * more than TERM_CANDIDATES claims, these are exactly the pairs the rules can relate (so in any run of up
 * to TERM_CANDIDATES claims, whatever they say); beyond, the work stays within MAX_COMPARED_PAIRS
 * comparisons (or MIN_PARTNERS_PER_CLAIM per claim) and each claim keeps its likeliest partners.
 */
export function* candidatePairs(
  claims: readonly ClaimInput[],
  terms: ReadonlyArray<ReadonlySet<string>>,
): SlicedWork<number[][]> {
  const n = claims.length;
  const counts = new Int32Array(n);
  const later: number[][] = claims.map(() => []);
  // Most runs have no more pairs than the budget: those are all kept, so they are collected in the
  // pass that counts them, and only a run over the budget is walked again to choose.
  let pairs = 0;
  yield* eachClaimsPartners(claims, terms, (j, ranks, count) => {
    counts[j] = count;
    pairs += count;
    // j grows, so every later[i] stays ascending: pairs are compared in (i, j) order.
    if (pairs <= MAX_COMPARED_PAIRS) for (let p = 0; p < count; p++) later[ranks[p]! % n]!.push(j);
  });
  if (pairs <= MAX_COMPARED_PAIRS) return later;
  for (const list of later) list.length = 0;
  const keep = partnersPerClaim(counts, MAX_COMPARED_PAIRS);
  yield* eachClaimsPartners(claims, terms, (j, ranks, count) => {
    const chosen = ranks.subarray(0, count);
    if (count > keep) chosen.sort().reverse();
    for (let p = 0; p < Math.min(count, keep); p++) later[chosen[p]! % n]!.push(j);
  });
  return later;
}
