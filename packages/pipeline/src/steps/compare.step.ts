import type { EvidenceDraft } from '@research/core';
import type { NewClaimCluster, NewClaimRelation } from '@research/database';
import { evidenceGraphOf, stableId } from '@research/engine';
import { evidenceRows, writeEvidence } from '../step-records';
import { defineStep, type RunSnapshot, type SnapshotOf, type StepContext, type StepRecordsInput } from '../steps';
import { scoreClaims } from './score';

/**
 * Compares every claim of the run with the others (clusters, supports, refines, contradicts) and with the
 * proposition of the run's question (each claim's stance, as the model that extracted it gave it or else
 * from its words; a refuting and a supporting claim of independent sources dispute it), and scores each
 * claim from that graph (steps/score.ts), deterministically: never calling the LLM.
 */
export async function compareStep(
  snapshot: SnapshotOf<'plan' | 'sources' | 'claims'>,
  ctx: StepContext,
): Promise<EvidenceDraft[]> {
  const graph = await evidenceGraphOf(snapshot.claims, snapshot.sources, { question: ctx.run.query });
  const round = new Map(snapshot.claims.map((c) => [c.id, c.round]));
  // Each contradiction is counted once: in the round its newer claim arrived.
  const fresh = graph.contradictions.filter(
    (c) => Math.max(round.get(c.claimA) ?? 0, round.get(c.claimB) ?? 0) === ctx.round,
  );
  if (fresh.length > 0) ctx.metrics.contradictionsDetected(fresh.length);
  for (const c of fresh) {
    ctx.progress({
      type: 'contradiction',
      round: ctx.round,
      claim_ids: [c.claimA, c.claimB],
      kind: c.contradiction.kind,
    });
  }
  if (ctx.round === 1) ctx.note({ kind: 'engine', step: 'compare', round: ctx.round, mode: 'deterministic' });
  return scoreClaims(snapshot, ctx, graph);
}

/** Comparing: the run's claims compared and scored (the sources' text tells copies apart), never the LLM. */
export const compareModule = defineStep({
  name: 'compare',
  state: 'comparing',
  reads: ['plan', 'sources', 'claims'],
  compute: compareStep,
  records: (drafts: EvidenceDraft[], { ctx, snapshot }: StepRecordsInput<'claims'>) => {
    const rows = evidenceRows(ctx.run, drafts, snapshot);
    return { write: (trx) => writeEvidence(trx, ctx.run.id, rows) };
  },
});

/** A run's claim graph as rows: its clusters (with their claims) and the relations between claims. */
export interface ClaimGraphRows {
  clusters: NewClaimCluster[];
  relations: NewClaimRelation[];
}

/**
 * The evidence graph the compare step scores with (the same proposition across sources is one cluster;
 * supports, refines and contradicts relations), as the rows POST /research/{id}/cluster-claims stores.
 * The relations are those between claims; disputes over the question's proposition are not stored here.
 */
export async function claimGraphRows(
  runId: string,
  snapshot: Pick<RunSnapshot, 'claims' | 'sources'>,
): Promise<ClaimGraphRows> {
  const graph = await evidenceGraphOf(snapshot.claims, snapshot.sources);
  return {
    clusters: graph.clusters.map((cluster) => ({
      id: stableId(runId, 'cluster', String(cluster.index)),
      position: cluster.index,
      representative_claim_id: cluster.claimIds[0]!,
      source_ids: cluster.sourceIds,
      independent_groups: cluster.groups,
      claim_ids: cluster.claimIds,
    })),
    relations: graph.relations.map((r) => ({
      claim_id: r.a,
      related_claim_id: r.b,
      relation: r.kind,
      contradiction_kind: r.contradiction?.kind ?? null,
      detail: r.contradiction?.detail ?? null,
    })),
  };
}
