import type { RunState } from '../api/types';

const ENDED: Record<string, string> = { completed: 'ok', failed: 'bad', cancelled: 'off' };

/** The run's state as a badge whose text is the state itself. */
export function RunStateBadge({ state }: { state: RunState | string }) {
  return <span className={`state-badge state-${ENDED[state] ?? 'running'}`}>{state}</span>;
}
