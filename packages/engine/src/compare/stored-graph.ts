import crypto from 'node:crypto';
import type { Cluster } from './clusters';
import type { Contradiction } from './contradiction';
import { graphInputs, type EvidenceGraph } from './evidence-graph';
import type { ClaimInput, SourceInput } from './graph-inputs';
import type { ClaimRelation } from './pair-relations';
import type { StanceJudgement } from './stance';

// The compare step's graph as it is stored with the run (JSON), so the steps and routes after it read it
// instead of building it again: synthesize, the stop report and the cluster route. A stored graph names the
// claims and sources it was built over (`inputs`) and the question its stances were judged against; a reader
// whose claims or sources differ (a route added claims since) builds the graph anew.

/** An evidence graph as JSON: clusters by their index, Maps as entry lists, no claim or source text. */
export interface StoredGraph {
  /** The claims and sources the graph was built over (graphInputsKey). */
  inputs: string;
  /** The question the stances were judged against, or null for a graph built without one. */
  question: string | null;
  clusters: Array<Pick<Cluster, 'index' | 'claimIds' | 'sourceIds' | 'groups'>>;
  relations: ClaimRelation[];
  groupOf: Array<[string, number]>;
  contradictions: Array<{ a: number; b: number; claimA: string; claimB: string; contradiction: Contradiction }>;
  refinements: Array<{ general: number; specific: number }>;
  stances: { proposition: string; judgements: Array<[string, StanceJudgement]> } | null;
}

/**
 * What a graph is built over, as a key: the ids of the claims it reads (those of the sources given) and of
 * the sources. Claims and sources are never changed under their id, so equal keys mean equal inputs.
 */
export function graphInputsKey(claims: readonly ClaimInput[], sources: readonly SourceInput[]): string {
  return keyOf(graphInputs(claims, sources));
}

/** The key of inputs already read (graphInputs). */
function keyOf(read: ReturnType<typeof graphInputs>): string {
  const hash = crypto.createHash('sha256');
  for (const id of [...read.sources.keys()].sort()) hash.update(`s\u0000${id}\u0000`);
  for (const claim of read.claims) hash.update(`c\u0000${claim.id}\u0000`);
  return hash.digest('hex');
}

/** The graph as it is stored: keyed by the claims and sources it read, with the stances of `question`. */
export function storedGraphOf(graph: EvidenceGraph, question: string | null): StoredGraph {
  return {
    inputs: keyOf(graph),
    question,
    clusters: graph.clusters.map(({ index, claimIds, sourceIds, groups }) => ({ index, claimIds, sourceIds, groups })),
    relations: graph.relations,
    groupOf: [...graph.groupOf],
    contradictions: graph.contradictions.map((c) => ({
      a: c.a.index,
      b: c.b.index,
      claimA: c.claimA,
      claimB: c.claimB,
      contradiction: c.contradiction,
    })),
    refinements: graph.refinements.map((r) => ({ general: r.general.index, specific: r.specific.index })),
    stances: graph.stances
      ? { proposition: graph.stances.proposition, judgements: [...graph.stances.judgements] }
      : null,
  };
}

/**
 * The stored graph over `claims` and `sources`, or null when it was built over other claims or sources, or
 * (with `question` given) against another question: then the caller builds it.
 */
export function graphFromStored(
  stored: StoredGraph | null | undefined,
  claimsIn: readonly ClaimInput[],
  sourcesIn: readonly SourceInput[],
  options: { question?: string | null } = {},
): EvidenceGraph | null {
  if (!stored) return null;
  if (options.question !== undefined && stored.question !== (options.question ?? null)) return null;
  const read = graphInputs(claimsIn, sourcesIn);
  if (stored.inputs !== keyOf(read)) return null;
  const { sources, claims } = read;
  const clusters: Cluster[] = stored.clusters.map((c) => ({ ...c }));
  const byIndex = new Map(clusters.map((c) => [c.index, c]));
  // In the claims' order, as the comparison fills it: a reader iterating it sees what a fresh graph gives.
  const ofClaim = new Map(clusters.flatMap((c) => c.claimIds.map((id) => [id, c] as const)));
  const clusterOf = new Map(claims.flatMap((c) => (ofClaim.has(c.id) ? [[c.id, ofClaim.get(c.id)!] as const] : [])));
  const cluster = (index: number) => byIndex.get(index)!;
  return {
    claims,
    sources,
    clusters,
    clusterOf,
    relations: stored.relations,
    groupOf: new Map(stored.groupOf),
    contradictions: stored.contradictions.map((c) => ({
      a: cluster(c.a),
      b: cluster(c.b),
      claimA: c.claimA,
      claimB: c.claimB,
      contradiction: c.contradiction,
    })),
    refinements: stored.refinements.map((r) => ({ general: cluster(r.general), specific: cluster(r.specific) })),
    stances: stored.stances
      ? { proposition: stored.stances.proposition, judgements: new Map(stored.stances.judgements) }
      : null,
  };
}
