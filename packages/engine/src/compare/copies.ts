import { registrableDomain, type SlicedWork } from '@research/core';
import type { SourceInput } from './graph-inputs';
import { UnionFind } from './union-find';
import { containment, shingles } from '../text/tokens';

/** Two sources share copied text when this share of the smaller one's 4-word shingles recurs. */
export const COPIED_TEXT = 0.5;
// Swept with the relations' thresholds (see SAME_PROPOSITION in pair-relations.ts): 0.3 and 0.7 leave every figure
// as it is.
/**
 * Sources a shingle proposes as copies at most: the nearest ones that hold it (see TERM_CANDIDATES in
 * candidate-pairs.ts).
 * Above a deep run's max_sources, so the pipeline's own runs are compared exactly.
 */
const SHINGLE_CANDIDATES = 64;
/** Sources whose shared text must be counted again in full, per source, when a shingle had more holders. */
const MAX_COPY_CHECKS_PER_SOURCE = 8;

/**
 * Independence groups: sources of one registrable domain, and sources sharing copied text, are one
 * group. Copies are found through an index of shingles, like claim candidates: each source counts the
 * shingles it shares with earlier sources. While no shingle has more than SHINGLE_CANDIDATES holders the
 * counts are exact; beyond, a pair whose count may still reach COPIED_TEXT is measured in full (at most
 * MAX_COPY_CHECKS_PER_SOURCE per source, skipping sources already in its group).
 */
export function* sourceGroups(sources: readonly SourceInput[]): SlicedWork<Map<string, number>> {
  const uf = new UnionFind(sources.length);
  const byDomain = new Map<string, number>();
  sources.forEach((s, i) => {
    const domain = registrableDomain(s.domain || s.url);
    const first = byDomain.get(domain);
    if (first === undefined) byDomain.set(domain, i);
    else uf.union(first, i);
  });
  const index: ShingleIndex = {
    sets: [],
    holders: new Map(),
    shared: new Int32Array(sources.length),
    touched: [],
  };
  for (let j = 0; j < sources.length; j++) {
    const own = shingles(sources[j]!.content.slice(0, 50_000));
    index.sets.push(own);
    yield;
    // Texts this short share too little to call one a copy of another.
    if (own.size < 20) continue;
    joinCopies(index, uf, j, own);
    yield;
  }
  return new Map(sources.map((s, i) => [s.id, uf.find(i)]));
}

/** The shingles of the sources read so far, and the counters of one source's pass over them. */
interface ShingleIndex {
  /** Each source's shingles, by position. */
  sets: Array<Set<string>>;
  /** The sources holding each shingle, in order. */
  holders: Map<string, number[]>;
  /** Shingles an earlier source shares with the current one (zero again after each source). */
  shared: Int32Array;
  /** The earlier sources whose `shared` count is not zero. */
  touched: number[];
}

/** Joins source j's group with the earlier sources it shares copied text with (see sourceGroups). */
function joinCopies(index: ShingleIndex, uf: UnionFind, j: number, own: Set<string>): void {
  const { sets, shared, touched } = index;
  const unread = countSharedShingles(index, j, own);
  const recount: Array<{ i: number; shared: number }> = [];
  for (const i of touched) {
    const smaller = Math.min(sets[i]!.size, own.size);
    if (shared[i]! / smaller >= COPIED_TEXT) uf.union(i, j);
    else if (Math.min(smaller, shared[i]! + unread) / smaller >= COPIED_TEXT) recount.push({ i, shared: shared[i]! });
    shared[i] = 0;
  }
  touched.length = 0;
  recount.sort((x, y) => y.shared - x.shared || y.i - x.i);
  let checks = 0;
  for (const { i } of recount) {
    if (checks >= MAX_COPY_CHECKS_PER_SOURCE) break;
    if (uf.find(i) === uf.find(j)) continue;
    checks++;
    if (containment(sets[i]!, own) >= COPIED_TEXT) uf.union(i, j);
  }
}

/**
 * Counts in `shared` the shingles of source j each earlier source holds (the nearest SHINGLE_CANDIDATES
 * holders of each), and adds j to the index; returns how many of j's shingles had holders left unread.
 */
function countSharedShingles({ holders, shared, touched }: ShingleIndex, j: number, own: Set<string>): number {
  let unread = 0;
  for (const shingle of own) {
    let list = holders.get(shingle);
    if (!list) holders.set(shingle, (list = []));
    const stop = Math.max(0, list.length - SHINGLE_CANDIDATES);
    if (stop > 0) unread++;
    for (let k = list.length - 1; k >= stop; k--) {
      const i = list[k]!;
      if (shared[i]++ === 0) touched.push(i);
    }
    list.push(j);
  }
  return unread;
}
