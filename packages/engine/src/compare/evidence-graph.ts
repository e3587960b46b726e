import { detectContradiction, type Contradiction } from './contradiction';
import { containment, jaccard, overlapCount, shingles, termSet } from '../text/tokens';

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
  /** Cluster pairs in contradiction, each with one witness pair of claims. */
  contradictions: Array<{ a: Cluster; b: Cluster; claimA: string; claimB: string; contradiction: Contradiction }>;
  /** Cluster pairs where one refines the other. */
  refinements: Array<{ general: Cluster; specific: Cluster }>;
}

const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'gov', 'ac', 'edu', 'or', 'ne', 'go', 'gv', 'nhs']);

/**
 * The registrable domain of a host (a small eTLD+1: "news.bbc.co.uk" → "bbc.co.uk"); IP addresses and
 * single-label hosts are their own domain.
 */
export function registrableDomain(host: string): string {
  const h = host
    .toLowerCase()
    .replace(/^www\./, '')
    .replace(/:\d+$/, '');
  if (/^[\d.]+$/.test(h) || h.includes(':') || !h.includes('.')) return h;
  const labels = h.split('.');
  const take = labels.length >= 3 && labels.at(-1)!.length === 2 && SECOND_LEVEL.has(labels.at(-2)!) ? 3 : 2;
  return labels.slice(-take).join('.');
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

function sourceGroups(sources: SourceInput[]): Map<string, number> {
  const uf = new UnionFind(sources.length);
  const byDomain = new Map<string, number>();
  const shingleSets = sources.map((s) => shingles(s.content.slice(0, 50_000)));
  sources.forEach((s, i) => {
    const domain = registrableDomain(s.domain || safeHost(s.url));
    const first = byDomain.get(domain);
    if (first === undefined) byDomain.set(domain, i);
    else uf.union(first, i);
  });
  for (let i = 0; i < sources.length; i++) {
    for (let j = i + 1; j < sources.length; j++) {
      const a = shingleSets[i]!;
      const b = shingleSets[j]!;
      if (a.size >= 20 && b.size >= 20 && containment(a, b) >= COPIED_TEXT) uf.union(i, j);
    }
  }
  return new Map(sources.map((s, i) => [s.id, uf.find(i)]));
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/**
 * Compares every claim of the run with every claim of the other sources: same proposition (supports),
 * one refining the other, or contradicting. Claims joined by supports form a cluster (the same
 * proposition across sources); refinements and contradictions relate clusters. Pure and order-stable: claims are
 * read in (round, position) order, so the same evidence always gives the same graph.
 */
export function buildEvidenceGraph(claimsIn: readonly ClaimInput[], sourcesIn: readonly SourceInput[]): EvidenceGraph {
  const sources = new Map(sourcesIn.map((s) => [s.id, s]));
  const claims = claimsIn
    .filter((c) => sources.has(c.source_id))
    .sort((a, b) => a.round - b.round || a.position - b.position || a.id.localeCompare(b.id));
  const groupOf = sourceGroups([...sourcesIn]);
  const terms = claims.map((c) => termSet(c.claim_text, false));
  const uf = new UnionFind(claims.length);
  const relations: ClaimRelation[] = [];
  const contradicting: Array<[number, number, Contradiction]> = [];
  const refining: Array<[number, number]> = [];

  for (let i = 0; i < claims.length; i++) {
    for (let j = i + 1; j < claims.length; j++) {
      const a = claims[i]!;
      const b = claims[j]!;
      if (a.source_id === b.source_id) continue;
      if (overlapCount(terms[i]!, terms[j]!) < 1) continue;
      const contradiction = detectContradiction(a.claim_text, b.claim_text);
      if (contradiction) {
        relations.push({ a: a.id, b: b.id, kind: 'contradicts', contradiction });
        contradicting.push([i, j, contradiction]);
        continue;
      }
      const sim = jaccard(terms[i]!, terms[j]!);
      if (sim >= SAME_PROPOSITION) {
        relations.push({ a: a.id, b: b.id, kind: 'supports' });
        uf.union(i, j);
      } else if (containment(terms[i]!, terms[j]!) >= REFINES_CONTAINMENT && overlapCount(terms[i]!, terms[j]!) >= 3) {
        // The one with more terms adds detail to the other.
        const [general, specific] = terms[i]!.size <= terms[j]!.size ? [i, j] : [j, i];
        relations.push({ a: claims[specific]!.id, b: claims[general]!.id, kind: 'refines' });
        refining.push([general, specific]);
      }
    }
  }

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

  const seenPairs = new Set<string>();
  const contradictions: EvidenceGraph['contradictions'] = [];
  for (const [i, j, contradiction] of contradicting) {
    const a = clusterOf.get(claims[i]!.id)!;
    const b = clusterOf.get(claims[j]!.id)!;
    if (a === b) continue;
    const key = a.index < b.index ? `${a.index}:${b.index}` : `${b.index}:${a.index}`;
    if (seenPairs.has(key)) continue;
    seenPairs.add(key);
    contradictions.push({ a, b, claimA: claims[i]!.id, claimB: claims[j]!.id, contradiction });
  }
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
  return { claims, sources, clusters, clusterOf, relations, groupOf, contradictions, refinements };
}
