import type { RunCheckpoint } from '@research/database';
import { readRunEvents, type RunNote } from '@research/engine';
import { PIPELINE_STEPS, RESEARCH_STEPS, type PipelineStep } from './steps/index';

/** The run's checkpoint as the orchestrator writes it: the committed steps plus the run's events. */
export interface PipelineCheckpoint extends RunCheckpoint {
  /** The events the committed steps recorded (fallbacks used, budgets that ran out), kept across resumes. */
  notes?: RunNote[];
}

export interface StepPosition {
  round: number;
  step: PipelineStep;
}

/** The registry's steps a round takes: all in round 1; later rounds skip the first round's own (planning). */
export function stepsOfRound(round: number): PipelineStep[] {
  return RESEARCH_STEPS.filter((m) => round === 1 || !m.firstRoundOnly).map((m) => m.name);
}

export function initialCheckpoint(rounds: number): PipelineCheckpoint {
  return { round: 1, done: [], rounds: Math.max(1, rounds), notes: [] };
}

/** The first step not committed yet, or null when every step of every round is committed. */
export function nextStep(checkpoint: PipelineCheckpoint): StepPosition | null {
  const remaining = stepsOfRound(checkpoint.round).filter((s) => !checkpoint.done.includes(s));
  if (remaining.length > 0) return { round: checkpoint.round, step: remaining[0]! };
  if (checkpoint.round < checkpoint.rounds)
    return { round: checkpoint.round + 1, step: stepsOfRound(checkpoint.round + 1)[0]! };
  return null;
}

/** The checkpoint once `position` is committed. */
export function checkpointAfter(
  checkpoint: PipelineCheckpoint,
  position: StepPosition,
  notes: RunNote[],
): PipelineCheckpoint {
  const done = position.round === checkpoint.round ? [...checkpoint.done, position.step] : [position.step];
  return { round: position.round, done, rounds: checkpoint.rounds, notes };
}

/** True for the step whose commit completes the run. */
export function isLastStep(checkpoint: PipelineCheckpoint, position: StepPosition): boolean {
  return position.round >= checkpoint.rounds && position.step === stepsOfRound(position.round).at(-1);
}

/** Reads a stored checkpoint defensively (jsonb written by an older or foreign version). */
export function readCheckpoint(stored: unknown, rounds: number): PipelineCheckpoint {
  if (!stored || typeof stored !== 'object') return initialCheckpoint(rounds);
  const cp = stored as Partial<PipelineCheckpoint>;
  const round = Number.isInteger(cp.round) && cp.round! >= 1 ? cp.round! : 1;
  const storedRounds = Number.isInteger(cp.rounds) && cp.rounds! >= 1 ? cp.rounds! : rounds;
  const done = Array.isArray(cp.done)
    ? cp.done.filter((s): s is PipelineStep => (PIPELINE_STEPS as readonly string[]).includes(s))
    : [];
  return { round, done, rounds: storedRounds, notes: readRunEvents(cp.notes) };
}
