import type { NewRunEvent, RunRow } from '@research/database';
import type { RunNote } from '@research/engine';
import { runBudgetOf } from './budget';
import { nextStep, readCheckpoint } from './checkpoint';
import { reportEvent } from './progress';
import { runStepOnRun, type OutsideLoop } from './step-on-run';
import { reportRecord } from './step-records';
import type { SnapshotOf } from './steps';
import type { StepReads } from './steps/index';

export interface StopReport {
  record: ReturnType<typeof reportRecord>;
  /** The run's progress events of the stop: where it stopped, and the report. */
  events: NewRunEvent[];
}

/**
 * The report of a run its client stops (POST /v1/research/{id}/cancel), from what the run has committed:
 * the synthesize step, extractive (a stop ends within seconds, never waiting on a model), with a `stopped`
 * event so the report's uncertainties say it rests on a partial run and where it stopped.
 */
export async function stopReport(
  run: RunRow,
  snapshot: SnapshotOf<StepReads<'synthesize'>>,
  outside: OutsideLoop,
): Promise<StopReport> {
  const checkpoint = readCheckpoint(run.checkpoint, runBudgetOf(run).rounds);
  const at = nextStep(checkpoint) ?? { step: 'synthesize', round: checkpoint.rounds };
  const stopped: RunNote = { kind: 'stopped', step: at.step, round: at.round };
  const { output } = await runStepOnRun('synthesize', {
    ...outside,
    services: { ...outside.services, llm: null },
    run,
    snapshot,
    events: [stopped],
  });
  const record = reportRecord(run, output, snapshot, new Date());
  return {
    record,
    events: [{ type: 'stopped', data: { step: at.step, round: at.round } }, reportEvent(record.report)],
  };
}
