import { planSchema } from '@research/core';
import {
  advanceCheckpoint,
  appendRunEvents,
  finishRun,
  findEvidenceGraph,
  listClaims,
  listEvidence,
  listSearchResults,
  listSources,
  refreshRunCounts,
  type Database,
  type NewRunEvent,
  type RunRow,
} from '@research/database';
import type { StoredGraph } from '@research/engine';
import type { RunBudget } from './budget';
import type { PipelineCheckpoint } from './checkpoint';
import { pauseForReview, pausesForReview } from './plan-review';
import { secondsSince, type RunnerDeps } from './run-lifecycle';
import type { DeferredMetrics } from './step-metrics';
import {
  type AnyStepModule,
  type RunSnapshot,
  type SnapshotOf,
  type SnapshotPart,
  type StepContext,
  type StepRecords,
} from './steps';

type SnapshotRun = { id: string; plan: unknown };

/** How each part of a snapshot is read back from Postgres. */
const SNAPSHOT_READERS: { [P in SnapshotPart]: (db: Database, run: SnapshotRun) => Promise<RunSnapshot[P]> } = {
  plan: async (_db, run) => {
    const plan = run.plan ? planSchema.safeParse(run.plan) : null;
    return plan?.success ? plan.data : null;
  },
  searchResults: (db, run) => listSearchResults(db, run.id),
  sources: (db, run) => listSources(db, run.id),
  claims: (db, run) => listClaims(db, run.id),
  evidence: (db, run) => listEvidence(db, run.id),
  // The engine's StoredGraph, as the compare step wrote it.
  graph: async (db, run) => ((await findEvidenceGraph(db, run.id))?.graph as StoredGraph | undefined) ?? null,
};

/** Every part of a run's snapshot: those readSnapshot knows how to read. */
export const SNAPSHOT_PARTS = Object.freeze(Object.keys(SNAPSHOT_READERS) as SnapshotPart[]);

/**
 * What the run has committed, read back from Postgres: the parts `reads` names and no others (a step's
 * declared reads), or, without `reads`, all of them.
 */
export async function readSnapshot(db: Database, run: SnapshotRun): Promise<RunSnapshot>;
export async function readSnapshot<R extends SnapshotPart>(
  db: Database,
  run: SnapshotRun,
  reads: readonly R[],
): Promise<SnapshotOf<R>>;
export async function readSnapshot(
  db: Database,
  run: SnapshotRun,
  reads: readonly SnapshotPart[] = SNAPSHOT_PARTS,
): Promise<Partial<RunSnapshot>> {
  const parts = await Promise.all(reads.map(async (part) => [part, await SNAPSHOT_READERS[part](db, run)] as const));
  return Object.fromEntries(parts);
}

/** One step to compute: its context, what it read of the run, and the time its records carry. */
export interface StepToCompute {
  ctx: StepContext;
  snapshot: Partial<RunSnapshot>;
  now: Date;
}

/**
 * Runs `step` on what it read and turns its output into the records its commit writes. The snapshot must
 * hold the step's declared reads (readSnapshot with `step.reads`).
 */
export async function computeStep(step: AnyStepModule, at: StepToCompute): Promise<StepRecords> {
  const snapshot = at.snapshot as RunSnapshot;
  const output = await step.compute(snapshot, at.ctx);
  return step.records(output, { ctx: at.ctx, snapshot, now: at.now });
}

export interface StepCommit {
  run: RunRow;
  /** The step's budget: its usage is stored with the checkpoint. */
  budget: RunBudget;
  seq: number;
  computed: StepRecords;
  checkpoint: PipelineCheckpoint;
  /** True when this commit completes the run. */
  last: boolean;
  deferred: DeferredMetrics;
  /** What the step reported and recorded while it worked (its output's events are in `computed`). */
  progress: NewRunEvent[];
}

/** What a run holds once a step committed. */
export interface RunCounts {
  sources: number;
  claims: number;
  /** The commit stopped the run for the review of its plan (plan-review.ts). */
  paused?: boolean;
}

/**
 * Commits a step in one transaction: the checkpoint (optimistic on checkpoint_seq, only while the run is
 * live), the step's records, the run's counters and usage, and on the last step the run's completion. The
 * step's metrics are counted and published before the commit makes the step visible; the plan's commit of a
 * run created with review_plan stops it for review. Returns the run's counts as committed; null: the run was
 * cancelled or advanced by another worker, and nothing was written.
 */
export async function commitStep(deps: RunnerDeps, c: StepCommit): Promise<RunCounts | null> {
  const runId = c.run.id;
  const { plan, write } = c.computed;
  return deps.db.transaction().execute(async (trx) => {
    // The checkpoint first: it takes the run's row lock, so a concurrent cancel waits for this commit or
    // wins before it (then nothing below is written).
    const advanced = await advanceCheckpoint(trx, runId, {
      expectedSeq: c.seq,
      checkpoint: c.checkpoint,
      ...(plan ? { plan } : {}),
      usage: c.budget.usage,
    });
    if (!advanced) return null;
    await write(trx);
    await appendRunEvents(trx, runId, [...c.progress, ...(c.computed.events ?? [])]);
    const counted = await refreshRunCounts(trx, runId);
    const counts: RunCounts = { sources: counted?.source_count ?? 0, claims: counted?.claim_count ?? 0 };
    if (c.last) await finishRun(trx, runId, { state: 'completed' });
    if (pausesForReview(c.run, c.checkpoint)) counts.paused = await pauseForReview(trx, runId);
    c.deferred.flush();
    if (c.last) {
      deps.metrics.sourcesFetched(counts.sources);
      deps.metrics.claimsExtracted(counts.claims);
      deps.metrics.runLlmTokens((c.budget.usage.llm_tokens_input ?? 0) + (c.budget.usage.llm_tokens_output ?? 0));
      deps.metrics.researchFinished('completed', secondsSince(deps, c.run));
    }
    await deps.publishMetrics();
    return counts;
  });
}
