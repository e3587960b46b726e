import { finishNow, registrableDomain, type SlicedWork } from '@research/core';
import { Statement, VERDICT_SUBJECT, contradictionBetween, type Contradiction } from './contradiction';
import { claimStances, stanceDisputes, type PropositionStances } from './stance-disputes';
import { namedEntities } from '../text/names';
import { containment, overlapCount, shingles, termSet } from '../text/tokens';

/** The parts of a claim the comparison reads. */
export interface ClaimInput {
  id: string;
  source_id: string;
  claim_text: string;
  evidence_span: string;
  claim_type: string;
  confidence: number;
  round: number;
  position: number;
  /** The claim's stance toward the question's proposition as the extracting model judged it, if one did. */
  stance?: string | null;
}

/** The parts of a source the comparison reads. */
export interface SourceInput {
  id: string;
  url: string;
  title: string | null;
  domain: string;
  source_type: string | null;
  content: string;
  published_at: string | null;
}

/** Claims of different sources state the same proposition at this term overlap (Jaccard)... */
export const SAME_PROPOSITION = 0.5;
/** ...or when one holds this share of the other's terms (then the longer one refines the shorter). */
export const REFINES_CONTAINMENT = 0.8;
/** Two sources share copied text when this share of the smaller one's 4-word shingles recurs. */
export const COPIED_TEXT = 0.5;
// The three swept on the contradiction tune part (17 disputed claims, 40 controls; without a model and with the judging
// one) and on the saved multihop tune runs (`--replay`): SAME_PROPOSITION 0.4 / 0.6, REFINES_CONTAINMENT 0.7 / 0.9 and
// COPIED_TEXT 0.3 / 0.7 leave every figure as it is (recall 1/17 and 12/17, false alarms 5/40 and 4/40; answers in
// report 239 / 166 / 26), but for SAME_PROPOSITION 0.4, one HotpotQA answer fewer. What they decide (which
// statements corroborate, which pages copy) no evaluation counts; they stand by their reasons.
/**
 * Every relation needs at least this share of the shorter claim's terms in the other (a contradiction
 * VERDICT_SUBJECT; the same proposition and refinement more), so pairs that cannot reach it are not
 * compared.
 */
const MIN_RELATED_SHARE = Math.min(VERDICT_SUBJECT, SAME_PROPOSITION, REFINES_CONTAINMENT);
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

export type RelationKind = 'supports' | 'refines' | 'contradicts';

export interface ClaimRelation {
  a: string;
  b: string;
  kind: RelationKind;
  contradiction?: Contradiction;
}

export interface Cluster {
  /** 1-based, in the order of the cluster's first claim. */
  index: number;
  claimIds: string[];
  sourceIds: string[];
  /** Independence groups behind the cluster (registrable domains, copies merged). */
  groups: number;
}

export interface EvidenceGraph {
  claims: ClaimInput[];
  sources: Map<string, SourceInput>;
  clusters: Cluster[];
  clusterOf: Map<string, Cluster>;
  relations: ClaimRelation[];
  /** Independence group of each source (same registrable domain or copied text = same group). */
  groupOf: Map<string, number>;
  /**
   * Cluster pairs in contradiction, each with one witness pair of claims: claims that contradict each
   * other, then claims that dispute the question's proposition (`contradiction.proposition` set; `a` and
   * `claimA` support it, `b` and `claimB` refute it).
   */
  contradictions: Array<{ a: Cluster; b: Cluster; claimA: string; claimB: string; contradiction: Contradiction }>;
  /** The stance of the claims toward the question's proposition; null without a question that proposes one. */
  stances: PropositionStances | null;
  /** Cluster pairs where one refines the other. */
  refinements: Array<{ general: Cluster; specific: Cluster }>;
}

class UnionFind {
  private readonly parent: number[];
  constructor(n: number) {
    this.parent = Array.from({ length: n }, (_, i) => i);
  }
  find(i: number): number {
    while (this.parent[i] !== i) {
      this.parent[i] = this.parent[this.parent[i]!]!;
      i = this.parent[i]!;
    }
    return i;
  }
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra !== rb) this.parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
}

/**
 * Sources a shingle proposes as copies at most: the nearest ones that hold it (see TERM_CANDIDATES).
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
function* sourceGroups(sources: readonly SourceInput[]): SlicedWork<Map<string, number>> {
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
function* candidatePairs(
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

/** What the comparison is told besides the claims and sources. */
export interface GraphOptions {
  /**
   * The run's question: each claim's stance toward its proposition is taken from the model that extracted
   * the claim or judged from its words, and a refuting claim is set against a supporting claim of another
   * independent source (see compare/stance-disputes.ts).
   */
  question?: string | null;
}

/**
 * The evidence graph as sliced work (see buildEvidenceGraph); `finishInSlices` runs it without holding
 * the event loop.
 */
export function* evidenceGraphWork(
  claimsIn: readonly ClaimInput[],
  sourcesIn: readonly SourceInput[],
  options: GraphOptions = {},
): SlicedWork<EvidenceGraph> {
  const sources = new Map(sourcesIn.map((s) => [s.id, s]));
  const claims = claimsIn
    .filter((c) => sources.has(c.source_id))
    .sort((a, b) => a.round - b.round || a.position - b.position || a.id.localeCompare(b.id));
  const groupOf = yield* sourceGroups(sourcesIn);
  const { statements, terms, names } = yield* claimStatements(claims);
  const later = yield* candidatePairs(claims, terms);
  const compared = yield* compareClaims({ claims, statements, terms, names }, later);
  const { clusters, clusterOf } = clusterClaims(claims, compared.uf, groupOf);
  const contradictions = yield* clusterContradictions(claims, clusterOf, compared.contradicting);
  const refinements = clusterRefinements(claims, clusterOf, compared.refining);
  const stances = yield* claimStances(claims, options.question);
  if (stances) contradictions.push(...propositionDisputes(claims, stances, { groupOf, clusterOf }));
  return {
    claims,
    sources,
    clusters,
    clusterOf,
    relations: compared.relations,
    groupOf,
    contradictions,
    refinements,
    stances,
  };
}

/** The disputes over the question's proposition as contradictions between clusters, each pair once. */
function propositionDisputes(
  claims: readonly ClaimInput[],
  stances: PropositionStances,
  independence: { groupOf: Map<string, number>; clusterOf: Map<string, Cluster> },
): EvidenceGraph['contradictions'] {
  const { clusterOf } = independence;
  const seen = new Set<string>();
  const out: EvidenceGraph['contradictions'] = [];
  for (const dispute of stanceDisputes(claims, stances, independence)) {
    const a = clusterOf.get(dispute.supporting)!;
    const b = clusterOf.get(dispute.refuting)!;
    const key = `${a.index}:${b.index}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ a, b, claimA: dispute.supporting, claimB: dispute.refuting, contradiction: dispute.contradiction });
  }
  return out;
}

/** Each claim as a Statement, with its terms read now (the costly part, so it is sliced here). */
function* claimStatements(
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
interface Comparison {
  /** Claims joined by supports (the same proposition). */
  uf: UnionFind;
  relations: ClaimRelation[];
  contradicting: Array<[number, number, Contradiction]>;
  /** [general, specific] */
  refining: Array<[number, number]>;
}

/** Relates each candidate pair (i, j) of `later`, in (i, j) order: contradicts, supports or refines. */
function* compareClaims(read: ReadClaims, later: readonly number[][]): SlicedWork<Comparison> {
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
interface ReadClaims {
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

/** The clusters of claims joined by supports, numbered in the order of their first claim. */
function clusterClaims(
  claims: readonly ClaimInput[],
  uf: UnionFind,
  groupOf: Map<string, number>,
): { clusters: Cluster[]; clusterOf: Map<string, Cluster> } {
  const clusters: Cluster[] = [];
  const clusterByRoot = new Map<number, Cluster>();
  const clusterOf = new Map<string, Cluster>();
  claims.forEach((c, i) => {
    const root = uf.find(i);
    let cluster = clusterByRoot.get(root);
    if (!cluster) {
      cluster = { index: clusters.length + 1, claimIds: [], sourceIds: [], groups: 0 };
      clusterByRoot.set(root, cluster);
      clusters.push(cluster);
    }
    cluster.claimIds.push(c.id);
    if (!cluster.sourceIds.includes(c.source_id)) cluster.sourceIds.push(c.source_id);
    clusterOf.set(c.id, cluster);
  });
  for (const cluster of clusters) cluster.groups = new Set(cluster.sourceIds.map((s) => groupOf.get(s))).size;
  return { clusters, clusterOf };
}

/** Pairs of different clusters in contradiction, each once, with the first pair of claims that showed it. */
function* clusterContradictions(
  claims: readonly ClaimInput[],
  clusterOf: Map<string, Cluster>,
  contradicting: Comparison['contradicting'],
): SlicedWork<EvidenceGraph['contradictions']> {
  const seenPairs = new Set<string>();
  const contradictions: EvidenceGraph['contradictions'] = [];
  for (const [k, [i, j, contradiction]] of contradicting.entries()) {
    if (k % 1024 === 1023) yield;
    const a = clusterOf.get(claims[i]!.id)!;
    const b = clusterOf.get(claims[j]!.id)!;
    if (a === b) continue;
    const key = a.index < b.index ? `${a.index}:${b.index}` : `${b.index}:${a.index}`;
    if (seenPairs.has(key)) continue;
    seenPairs.add(key);
    contradictions.push({ a, b, claimA: claims[i]!.id, claimB: claims[j]!.id, contradiction });
  }
  return contradictions;
}

/** Pairs of different clusters where one refines the other, each once. */
function clusterRefinements(
  claims: readonly ClaimInput[],
  clusterOf: Map<string, Cluster>,
  refining: Comparison['refining'],
): EvidenceGraph['refinements'] {
  const refinements: EvidenceGraph['refinements'] = [];
  const seenRefines = new Set<string>();
  for (const [g, s] of refining) {
    const general = clusterOf.get(claims[g]!.id)!;
    const specific = clusterOf.get(claims[s]!.id)!;
    const key = `${general.index}>${specific.index}`;
    if (general === specific || seenRefines.has(key)) continue;
    seenRefines.add(key);
    refinements.push({ general, specific });
  }
  return refinements;
}

/**
 * Compares each claim of the run with the claims of the other sources that share terms with it (see
 * candidatePairs): same proposition (supports), one refining the other, or contradicting. Claims joined
 * by supports form a cluster (the same proposition across sources); refinements and contradictions
 * relate clusters. Pure and order-stable: claims are read in (round, position) order, so the same
 * evidence always gives the same graph.
 */
export function buildEvidenceGraph(
  claimsIn: readonly ClaimInput[],
  sourcesIn: readonly SourceInput[],
  options: GraphOptions = {},
): EvidenceGraph {
  return finishNow(evidenceGraphWork(claimsIn, sourcesIn, options));
}
