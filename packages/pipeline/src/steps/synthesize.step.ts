import type { ReportBody } from '@research/core';
import { evidenceDraftsOf, synthesizeReport } from '@research/engine';
import { reportEvent } from '../progress';
import { reportRecord, writeReport } from '../step-records';
import { defineStep, type SnapshotOf, type StepContext, type StepRecords, type StepRecordsInput } from '../steps';
import { graphOfRun } from './run-graph';
import { controlsOf } from './source-controls';

/** The cited report of the run's evidence; only the last round's is worded by the LLM and stored. */
export async function synthesizeStep(
  snapshot: SnapshotOf<'plan' | 'sources' | 'claims' | 'evidence' | 'graph'>,
  ctx: StepContext,
): Promise<ReportBody> {
  const { body, notes } = await synthesizeReport(ctx.services.llm, ctx, {
    query: ctx.run.query,
    language: ctx.run.language,
    plan: snapshot.plan,
    graph: await graphOfRun(snapshot, ctx.run.query),
    evidence: evidenceDraftsOf(snapshot.evidence),
    round: ctx.round,
    rounds: ctx.rounds,
    queriesSent: ctx.budget.usage.search_queries ?? 0,
    notes: ctx.notes,
    generatedAt: new Date(),
    final: ctx.round >= ctx.rounds,
    sourceControls: controlsOf(ctx),
  });
  for (const note of notes) ctx.note(note);
  return body;
}

/** The last round's report, stored in the transaction that completes the run; earlier rounds store nothing. */
function synthesizeRecords(body: ReportBody, { ctx, snapshot, now }: StepRecordsInput<'sources'>): StepRecords {
  if (ctx.round < ctx.rounds) return { write: async () => undefined };
  const record = reportRecord(ctx.run, body, snapshot, now);
  return { write: (trx) => writeReport(trx, ctx.run.id, record), events: [reportEvent(record.report)] };
}

/** Synthesizing: the cited report of the run's claims, evidence and sources (the lead finding reads its text). */
export const synthesizeModule = defineStep({
  name: 'synthesize',
  state: 'synthesizing',
  reads: ['plan', 'sources', 'claims', 'evidence', 'graph'],
  compute: synthesizeStep,
  records: synthesizeRecords,
});
