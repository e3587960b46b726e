import { finishNow, type SlicedWork } from '@research/core';
import { candidatePairs } from './candidate-pairs';
import {
  clusterClaims,
  clusterContradictions,
  clusterRefinements,
  propositionDisputes,
  type Cluster,
  type ClusterContradiction,
  type ClusterRefinement,
} from './clusters';
import { sourceGroups } from './copies';
import type { ClaimInput, SourceInput } from './graph-inputs';
import { claimStatements, compareClaims, type ClaimRelation } from './pair-relations';
import { claimStances, type PropositionStances } from './stance-disputes';

// The comparison in four parts, each in its file: which sources are independent (copies.ts), which pairs of claims
// are worth comparing (candidate-pairs.ts), how two claims relate (pair-relations.ts), and the clusters of claims
// that state the same thing and how they relate (clusters.ts).

/** What comparing a run's claims found: clusters of claims, their relations, and the sources' independence. */
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
  contradictions: ClusterContradiction[];
  /** The stance of the claims toward the question's proposition; null without a question that proposes one. */
  stances: PropositionStances | null;
  /** Cluster pairs where one refines the other. */
  refinements: ClusterRefinement[];
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
 * The claims and sources a graph is built over: the sources by id, and the claims of those sources in
 * (round, position, id) order, so the same evidence always gives the same graph.
 */
export function graphInputs(
  claimsIn: readonly ClaimInput[],
  sourcesIn: readonly SourceInput[],
): { sources: Map<string, SourceInput>; claims: ClaimInput[] } {
  const sources = new Map(sourcesIn.map((s) => [s.id, s]));
  const claims = claimsIn
    .filter((c) => sources.has(c.source_id))
    .sort((a, b) => a.round - b.round || a.position - b.position || a.id.localeCompare(b.id));
  return { sources, claims };
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
  const { sources, claims } = graphInputs(claimsIn, sourcesIn);
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
