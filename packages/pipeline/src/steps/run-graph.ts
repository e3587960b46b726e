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

/** The compare step's graph of the run's claims and sources, and the same graph as it is stored. */
export async function buildRunGraph(
  snapshot: Pick<RunSnapshot, 'claims' | 'sources'>,
  question: string,
): Promise<{ graph: EvidenceGraph; stored: StoredGraph }> {
  const graph = await evidenceGraphOf(snapshot.claims, snapshot.sources, { question });
  return { graph, stored: storedGraphOf(graph, question) };
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
