import type { EvidenceDraft } from '@research/core';
import { compareEvidence } from '@research/engine';
import type { RunSnapshot, StepContext } from '../steps';

/** Scores every claim of the run against the others, deterministically (never with the LLM). */
export async function compareStep(snapshot: RunSnapshot, ctx: StepContext): Promise<EvidenceDraft[]> {
  const { graph, evidence } = await compareEvidence({
    claims: snapshot.claims,
    sources: snapshot.sources,
    plan: snapshot.plan,
    referenceDate: ctx.run.created_at,
  });
  const round = new Map(snapshot.claims.map((c) => [c.id, c.round]));
  // Each contradiction is counted once: in the round its newer claim arrived.
  const fresh = graph.contradictions.filter(
    (c) => Math.max(round.get(c.claimA) ?? 0, round.get(c.claimB) ?? 0) === ctx.round,
  ).length;
  if (fresh > 0) ctx.metrics.contradictionsDetected(fresh);
  if (ctx.round === 1) ctx.record({ kind: 'engine', step: 'compare', round: ctx.round, mode: 'deterministic' });
  return evidence;
}
