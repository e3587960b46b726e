import type { EvidenceDraft } from '@research/core';
import {
  deleteEvidenceGraph,
  writeEvidenceGraph,
  type Db,
  type NewClaimCluster,
  type NewClaimRelation,
  type RunRow,
} from '@research/database';
import { stableId, type StoredGraph } from '@research/engine';
import { evidenceRows, writeEvidence } from '../step-records';
import { defineStep, type RunSnapshot, type SnapshotOf, type StepContext, type StepRecordsInput } from '../steps';
import { buildRunGraph, graphOfRun } from './run-graph';
import { scoreClaims } from './score';

/**
 * What comparing gives: one evidence score per claim, and the graph they were scored over as it is stored
 * (null for a graph too large to store: run-graph.ts).
 */
export interface Comparison {
  evidence: EvidenceDraft[];
  graph: StoredGraph | null;
}

/**
 * Compares every claim of the run with the others (clusters, supports, refines, contradicts) and with the
 * proposition of the run's question (each claim's stance, as the model that extracted it gave it or else
 * from its words; a refuting and a supporting claim of independent sources dispute it), and scores each
 * claim from that graph (steps/score.ts), deterministically: never calling the LLM.
 */
export async function compareStep(
  snapshot: SnapshotOf<'plan' | 'sources' | 'claims'>,
  ctx: StepContext,
): Promise<Comparison> {
  const { graph, stored } = await buildRunGraph(snapshot, ctx.run.query);
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
  return { evidence: await scoreClaims(snapshot, ctx, graph), graph: stored };
}

/**
 * Comparing: the run's claims compared and scored (the sources' text tells copies apart), never the LLM. The
 * graph is stored with the scores, for the steps and routes after it (steps/run-graph.ts).
 */
export const compareModule = defineStep({
  name: 'compare',
  state: 'comparing',
  reads: ['plan', 'sources', 'claims'],
  compute: compareStep,
  records: (output: Comparison, { ctx, snapshot, now }: StepRecordsInput<'claims'>) => ({
    write: (trx) => writeComparison(trx, { run: ctx.run, output, snapshot, now }),
  }),
});

/**
 * Stores what comparing gave, for the runner and for a route that compares again: the evidence scores (replacing
 * the run's) and the graph they were scored over.
 */
export async function writeComparison(
  trx: Db,
  c: { run: RunRow; output: Comparison; snapshot: SnapshotOf<'claims'>; now: Date },
): Promise<void> {
  await writeEvidence(trx, c.run.id, evidenceRows(c.run, c.output.evidence, c.snapshot));
  if (c.output.graph) await writeEvidenceGraph(trx, c.run.id, c.output.graph, c.now);
  else await deleteEvidenceGraph(trx, c.run.id);
}

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
  snapshot: Pick<RunSnapshot, 'claims' | 'sources' | 'graph'>,
): Promise<ClaimGraphRows> {
  // Clusters and relations do not depend on the question: the compare step's stored graph has them.
  const graph = await graphOfRun(snapshot, null);
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
