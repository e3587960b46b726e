import { finishInSlices, type EvidenceDraft, type Plan, type SlicedWork } from '@research/core';
import { evidenceGraphWork, type EvidenceGraph, type GraphOptions } from './evidence-graph';
import type { ClaimInput, SourceInput } from './graph-inputs';
import { scoreWork, type ScoringInput } from './evidence-scores';

export interface CompareEvidenceInput {
  claims: readonly ClaimInput[];
  sources: readonly SourceInput[];
  plan: Pick<Plan, 'time_sensitivity'> | null;
  /** The run's question: claims are judged for their stance toward its proposition (GraphOptions). */
  question?: string | null;
  /** The run's creation time: ages are measured from it, so scores do not drift. */
  referenceDate: Date;
}

function* compareWork(input: CompareEvidenceInput): SlicedWork<{ graph: EvidenceGraph; evidence: EvidenceDraft[] }> {
  const graph = yield* evidenceGraphWork(input.claims, input.sources, { question: input.question });
  const evidence = yield* scoreWork(
    {
      claims: input.claims,
      sources: input.sources,
      timeSensitivity: input.plan?.time_sensitivity ?? 'none',
      referenceDate: input.referenceDate,
    },
    graph,
  );
  return { graph, evidence };
}

/**
 * The comparison of a run's claims: the evidence graph (clusters, supports/refines/contradicts relations)
 * and one deterministic evidence score per claim. The pipeline's compare step and the evidence and
 * clustering routes all call this, so the same evidence always gives the same scores. It runs in slices
 * that leave the event loop free between them (a run holds up to MAX_CLAIMS_PER_RUN claims).
 */
export function compareEvidence(
  input: CompareEvidenceInput,
): Promise<{ graph: EvidenceGraph; evidence: EvidenceDraft[] }> {
  return finishInSlices(compareWork(input));
}

/** The evidence graph alone, built in slices like compareEvidence (for the gap analysis and reports). */
export function evidenceGraphOf(
  claims: readonly ClaimInput[],
  sources: readonly SourceInput[],
  options: GraphOptions = {},
): Promise<EvidenceGraph> {
  return finishInSlices(evidenceGraphWork(claims, sources, options));
}

/** One evidence score per claim over a graph already built, in slices like compareEvidence. */
export function scoreOverGraph(input: ScoringInput, graph: EvidenceGraph): Promise<EvidenceDraft[]> {
  return finishInSlices(scoreWork(input, graph));
}
