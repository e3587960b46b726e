import type { EvidenceDraft, Plan } from '@research/core';
import { buildEvidenceGraph, type ClaimInput, type EvidenceGraph, type SourceInput } from './evidence-graph';
import { scoreEvidence } from './evidence-scores';

/**
 * The comparison of a run's claims: the evidence graph (clusters, supports/refines/contradicts relations)
 * and one deterministic evidence score per claim. The pipeline's compare step and the evidence and
 * clustering routes all call this, so the same evidence always gives the same scores.
 */
export function compareEvidence(input: {
  claims: readonly ClaimInput[];
  sources: readonly SourceInput[];
  plan: Pick<Plan, 'time_sensitivity'> | null;
  /** The run's creation time: ages are measured from it, so scores do not drift. */
  referenceDate: Date;
}): { graph: EvidenceGraph; evidence: EvidenceDraft[] } {
  const graph = buildEvidenceGraph(input.claims, input.sources);
  const evidence = scoreEvidence(
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
