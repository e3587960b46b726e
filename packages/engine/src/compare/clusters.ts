import type { SlicedWork } from '@research/core';
import type { Contradiction } from './contradiction';
import type { ClaimInput } from './graph-inputs';
import type { Comparison } from './pair-relations';
import { stanceDisputes, type PropositionStances } from './stance-disputes';
import type { UnionFind } from './union-find';

export interface Cluster {
  /** 1-based, in the order of the cluster's first claim. */
  index: number;
  claimIds: string[];
  sourceIds: string[];
  /** Independence groups behind the cluster (registrable domains, copies merged). */
  groups: number;
}

/** Two clusters in contradiction, with the pair of claims that showed it (see EvidenceGraph.contradictions). */
export interface ClusterContradiction {
  a: Cluster;
  b: Cluster;
  claimA: string;
  claimB: string;
  contradiction: Contradiction;
}

/** Two clusters where one refines the other. */
export interface ClusterRefinement {
  general: Cluster;
  specific: Cluster;
}

/** The clusters of claims joined by supports, numbered in the order of their first claim. */
export function clusterClaims(
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
export function* clusterContradictions(
  claims: readonly ClaimInput[],
  clusterOf: Map<string, Cluster>,
  contradicting: Comparison['contradicting'],
): SlicedWork<ClusterContradiction[]> {
  const seenPairs = new Set<string>();
  const contradictions: ClusterContradiction[] = [];
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
export function clusterRefinements(
  claims: readonly ClaimInput[],
  clusterOf: Map<string, Cluster>,
  refining: Comparison['refining'],
): ClusterRefinement[] {
  const refinements: ClusterRefinement[] = [];
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

/** The disputes over the question's proposition as contradictions between clusters, each pair once. */
export function propositionDisputes(
  claims: readonly ClaimInput[],
  stances: PropositionStances,
  independence: { groupOf: Map<string, number>; clusterOf: Map<string, Cluster> },
): ClusterContradiction[] {
  const { clusterOf } = independence;
  const seen = new Set<string>();
  const out: ClusterContradiction[] = [];
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
