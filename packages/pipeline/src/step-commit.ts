import { planSchema } from '@research/core';
import { controlsOf } from './steps/source-controls';
import {
  advanceCheckpoint,
  appendRunEvents,
  finishRun,
  listClaims,
  listEvidence,
  listSearchResults,
  listSources,
  refreshRunCounts,
  type ClaimRow,
  type Database,
  type NewRunEvent,
  type RunRow,
  type SourceRow,
} from '@research/database';
import type { RunBudget } from './budget';
import type { PipelineCheckpoint, StepPosition } from './checkpoint';
import { secondsSince, type RunnerDeps } from './run-lifecycle';
import type { DeferredMetrics } from './step-metrics';
import { reportEvent } from './progress';
import {
  claimRows,
  cleanJson,
  evidenceRows,
  reportRecord,
  searchResultRows,
  sourceRows,
  writeClaims,
  writeEvidence,
  writeReport,
  writeSearchResults,
  writeSources,
} from './step-records';
import type { PipelineSteps, RunSnapshot, StepContext } from './steps';

type Trx = Parameters<typeof writeSources>[0];

/**
 * A computed step: the records it writes in its transaction, the plan when it planned, and the progress
 * events its output adds (the plan, the sources read, claims per source, the report).
 */
export interface ComputedStep {
  write: (trx: Trx) => Promise<void>;
  plan?: Record<string, unknown>;
  events?: NewRunEvent[];
}

function sourceEvents(round: number, rows: readonly SourceRow[]): NewRunEvent[] {
  return rows.map((s) => ({
    type: 'source',
    data: { round, url: s.url, outcome: 'fetched', source_id: s.id, title: s.title, domain: s.domain },
  }));
}

function claimEvents(round: number, rows: readonly Pick<ClaimRow, 'source_id'>[]): NewRunEvent[] {
  const counts = new Map<string, number>();
  for (const c of rows) counts.set(c.source_id, (counts.get(c.source_id) ?? 0) + 1);
  return [...counts].map(([source_id, count]) => ({ type: 'claims', data: { round, source_id, count } }));
}

/** Everything committed for the run, read back from Postgres before each step. */
export async function readSnapshot(db: Database, run: { id: string; plan: unknown }): Promise<RunSnapshot> {
  const [searchResults, sources, claims, evidence] = await Promise.all([
    listSearchResults(db, run.id),
    listSources(db, run.id),
    listClaims(db, run.id),
    listEvidence(db, run.id),
  ]);
  const plan = run.plan ? planSchema.safeParse(run.plan) : null;
  return { plan: plan?.success ? plan.data : null, searchResults, sources, claims, evidence };
}

/** One step to compute: where the run stands, what it has committed, and the time its records carry. */
export interface StepToCompute {
  position: StepPosition;
  ctx: StepContext;
  snapshot: RunSnapshot;
  now: Date;
}

/** Runs the registered step for `position` and turns its output into the records its commit writes. */
export async function computeStep(steps: PipelineSteps, step: StepToCompute): Promise<ComputedStep> {
  const { position, ctx, snapshot, now } = step;
  const { run } = ctx;
  switch (position.step) {
    case 'plan': {
      const plan = planSchema.parse(await steps.plan(snapshot, ctx));
      const queries = plan.search_queries.map((q) => q.query);
      // The run's source controls are part of its strategy as GET /v1/research/{id}/plan shows it.
      const controls = controlsOf(ctx);
      const shown = controls ? { source_controls: controls } : {};
      const events = [
        { type: 'plan', data: { queries, sub_questions: plan.sub_questions, rounds: ctx.rounds, ...shown } },
      ];
      return { write: async () => undefined, plan: cleanJson({ ...plan, ...shown }), events };
    }
    case 'search': {
      const rows = searchResultRows(run, position.round, await steps.search(snapshot, ctx), snapshot);
      return { write: (trx) => writeSearchResults(trx, rows) };
    }
    case 'fetch': {
      const read = await steps.fetch(snapshot, ctx);
      const hits = searchResultRows(run, position.round, read.searchResults, snapshot);
      const rows = sourceRows(run, position.round, read.sources, { snapshot, budget: ctx.budget, now });
      return {
        write: async (trx) => {
          await writeSearchResults(trx, hits);
          await writeSources(trx, rows);
        },
        events: sourceEvents(position.round, rows),
      };
    }
    case 'analyze': {
      const { rows } = claimRows(run, position.round, await steps.analyze(snapshot, ctx), snapshot);
      return { write: (trx) => writeClaims(trx, rows), events: claimEvents(position.round, rows) };
    }
    case 'compare': {
      const rows = evidenceRows(run, await steps.compare(snapshot, ctx), snapshot);
      return { write: (trx) => writeEvidence(trx, run.id, rows) };
    }
    case 'synthesize': {
      const body = await steps.synthesize(snapshot, ctx);
      if (position.round < ctx.rounds) return { write: async () => undefined };
      const record = reportRecord(run, body, snapshot, now);
      return { write: (trx) => writeReport(trx, run.id, record), events: [reportEvent(record.report)] };
    }
  }
}

export interface StepCommit {
  run: RunRow;
  /** The step's budget: its usage is stored with the checkpoint. */
  budget: RunBudget;
  seq: number;
  snapshot: RunSnapshot;
  computed: ComputedStep;
  checkpoint: PipelineCheckpoint;
  /** True when this commit completes the run. */
  last: boolean;
  deferred: DeferredMetrics;
  /** What the step reported and recorded while it worked (its output's events are in `computed`). */
  progress: NewRunEvent[];
}

/**
 * Commits a step in one transaction: the checkpoint (optimistic on checkpoint_seq, only while the run is
 * live), the step's records, the run's counters and usage, and on the last step the run's completion. The
 * step's metrics are counted and published before the commit makes the step visible. False: the run was
 * cancelled or advanced by another worker, and nothing was written.
 */
export async function commitStep(deps: RunnerDeps, c: StepCommit): Promise<boolean> {
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
    if (!advanced) return false;
    await write(trx);
    await appendRunEvents(trx, runId, [...c.progress, ...(c.computed.events ?? [])]);
    await refreshRunCounts(trx, runId);
    if (c.last) await finishRun(trx, runId, { state: 'completed' });
    c.deferred.flush();
    if (c.last) {
      deps.metrics.sourcesFetched(c.snapshot.sources.length);
      deps.metrics.claimsExtracted(c.snapshot.claims.length);
      deps.metrics.researchFinished('completed', secondsSince(deps, c.run));
    }
    await deps.publishMetrics();
    return true;
  });
}
