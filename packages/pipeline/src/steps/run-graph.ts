import {
  evidenceGraphOf,
  graphFromStored,
  storedGraphOf,
  type EvidenceGraph,
  type StoredGraph,
} from '@research/engine';
import type { RunSnapshot } from '../steps';

// The run's evidence graph is built by the compare step and stored with its commit; the steps and routes after
// it (synthesize, the stop report, the cluster route) read that one while it still describes the run's claims
// and sources, and build it anew only when it does not (claims a route added since, or no compare yet).

/**
 * The most relations and contradictions a stored graph holds. Writing and reading a stored graph is one
 * JSON.stringify and one JSON.parse, which hold the event loop: at this size (about 0.5 MB of JSON, some 5 ms
 * to parse on this machine) they stay far under the 100 ms a request may block it, and a run of a few hundred
 * claims holds fewer (the evaluations' runs of 120 claims: 16 kB). A larger graph is not stored and its readers
 * build it again, in slices: 2,000 claims that all disagree give 63,360 pairs, 3 MB of JSON, 15 ms to write and
 * 27 ms to parse at once (more under load, with the driver's parse and the graph rebuilt from it).
 */
export const MAX_STORED_GRAPH_PAIRS = 10_000;

/** The compare step's graph of the run's claims and sources, and the same graph as it is stored (null: too large). */
export async function buildRunGraph(
  snapshot: Pick<RunSnapshot, 'claims' | 'sources'>,
  question: string,
): Promise<{ graph: EvidenceGraph; stored: StoredGraph | null }> {
  const graph = await evidenceGraphOf(snapshot.claims, snapshot.sources, { question });
  const pairs = graph.relations.length + graph.contradictions.length;
  return { graph, stored: pairs <= MAX_STORED_GRAPH_PAIRS ? storedGraphOf(graph, question) : null };
}

/**
 * The run's evidence graph with the stances of `question`: the stored one when it was built over these claims
 * and sources against that question, else built now. `question: null` asks for the parts that do not depend on
 * the question (clusters, relations, independence), which any stored graph over these claims and sources has.
 */
export async function graphOfRun(
  snapshot: Pick<RunSnapshot, 'claims' | 'sources' | 'graph'>,
  question: string | null,
): Promise<EvidenceGraph> {
  const { claims, sources } = snapshot;
  const stored = graphFromStored(snapshot.graph, claims, sources, question === null ? {} : { question });
  return stored ?? evidenceGraphOf(claims, sources, question === null ? {} : { question });
}
