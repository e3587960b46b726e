import type { Depth, RunState } from '../api/types';
import { STEP_STATES, type ProgressState } from './progress';

/** What each step's state means to a reader, in the words of the run page. */
const STEP_LABELS: Record<string, string> = {
  planning: 'Planning the searches',
  searching: 'Searching',
  fetching: 'Reading the sources',
  analyzing: 'Taking claims from the sources',
  comparing: 'Comparing the claims',
  synthesizing: 'Writing the report',
};

/** The rounds a depth runs (SPEC 1.3) until the plan event says how many the run has. */
const ROUNDS_BY_DEPTH: Record<Depth, number> = { quick: 1, normal: 2, deep: 3 };

/** Where a running run stands: its step among the six, its round, and both as a share of the whole run. */
export interface StepPosition {
  /** 1 to 6 while a step works; 0 while the run waits for a worker. */
  step: number;
  steps: number;
  label: string;
  round: number;
  rounds: number;
  /** Steps of the whole run (every round) finished, half of the current one counted: the bar's value. */
  done: number;
  /** Steps of the whole run: six in round 1, five in each later one (planning happens once). */
  total: number;
}

/** The run's position from its progress (and its depth, until the plan tells the rounds). */
export function stepPosition(progress: ProgressState, depth: Depth): StepPosition {
  const rounds = Math.max(1, progress.rounds ?? ROUNDS_BY_DEPTH[depth] ?? 1);
  const steps = STEP_STATES.length;
  const total = steps + (rounds - 1) * (steps - 1);
  // Planned and waiting for the review of its plan: the first step is done, the second not begun.
  if (progress.state === 'awaiting_review')
    return { step: 1, steps, label: 'Plan ready, waiting for your review', round: 1, rounds, done: 1, total };
  const index = progress.state === null ? -1 : STEP_STATES.indexOf(progress.state as RunState);
  if (index < 0) return { step: 0, steps, label: 'Waiting for a worker', round: 0, rounds, done: 0, total };
  const round = Math.min(Math.max(1, progress.round), rounds);
  // Round 1 has every step; a later round starts at searching (index 1), after the rounds before it.
  const position = round === 1 ? index + 1 : steps + (round - 2) * (steps - 1) + index;
  return {
    step: index + 1,
    steps,
    label: STEP_LABELS[STEP_STATES[index]!] ?? STEP_STATES[index]!,
    round,
    rounds,
    done: position - 0.5,
    total,
  };
}

/** "Step 3 of 6: Reading the sources", with the round when the run has more than one. */
export function stepText(p: StepPosition): string {
  if (p.step === 0) return `${p.label}…`;
  const round = p.rounds > 1 ? `, round ${p.round} of ${p.rounds}` : '';
  return `Step ${p.step} of ${p.steps}${round}: ${p.label}`;
}

/** A duration as a clock reads it: 0:07, 12:34, 1:02:03. */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const seconds = String(total % 60).padStart(2, '0');
  const minutes = Math.floor(total / 60) % 60;
  const hours = Math.floor(total / 3600);
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** The same duration as ISO 8601 (a <time> element's dateTime): PT1M7S. */
export function isoDuration(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  return `PT${Math.floor(total / 3600)}H${Math.floor(total / 60) % 60}M${total % 60}S`;
}
