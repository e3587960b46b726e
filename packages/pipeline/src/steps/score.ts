import type { EvidenceDraft } from '@research/core';
import { scoreOverGraph, type EvidenceGraph } from '@research/engine';
import type { RunSnapshot, StepContext } from '../steps';

/**
 * One evidence score per claim of the run, from the graph the compare step built: deterministic, never the
 * LLM, and measured from the run's creation time so scores do not drift (docs/evidence-scoring.md).
 */
export function scoreClaims(
  snapshot: Pick<RunSnapshot, 'claims' | 'sources' | 'plan'>,
  ctx: Pick<StepContext, 'run'>,
  graph: EvidenceGraph,
): Promise<EvidenceDraft[]> {
  const input = {
    claims: snapshot.claims,
    sources: snapshot.sources,
    timeSensitivity: snapshot.plan?.time_sensitivity ?? 'none',
    referenceDate: ctx.run.created_at,
  };
  return scoreOverGraph(input, graph);
}
