import type { RunState } from '../api/types';
import './StateBadge.css';

export type StateGroup = 'running' | 'completed' | 'failed' | 'cancelled';

/** The colour group of a run's state: its three ends, and every other state (a newer one too) as running. */
export function stateGroup(state: RunState | string): StateGroup {
  return state === 'completed' || state === 'failed' || state === 'cancelled' ? state : 'running';
}

/** A run's state as a small badge: its text is the state itself, its colour says the group. */
export function StateBadge({ state }: { state: RunState | string }) {
  return <span className={`state-badge state-badge--${stateGroup(state)}`}>{state}</span>;
}
