/** Per-host politeness: at most `perHost` requests to one host at once, starts spaced by a delay. */
export interface Politeness {
  /** Runs `task` when the host has a free slot and its delay since the last start has passed. */
  schedule<T>(host: string, task: () => Promise<T>, delayMs?: number): Promise<T>;
}

interface HostState {
  active: number;
  nextStartAt: number;
  waiting: Array<() => void>;
  timer: NodeJS.Timeout | undefined;
}

/** Builds the per-host scheduler; `delayMs` is the default spacing between starts on one host. */
export function createPoliteness(options: { perHost: number; delayMs: number; now?: () => number }): Politeness {
  const now = options.now ?? Date.now;
  const hosts = new Map<string, HostState>();

  function pump(host: string, state: HostState): void {
    if (state.timer) return;
    while (state.waiting.length > 0 && state.active < options.perHost) {
      const wait = state.nextStartAt - now();
      if (wait > 0) {
        state.timer = setTimeout(() => {
          state.timer = undefined;
          pump(host, state);
        }, wait);
        return;
      }
      state.active++;
      state.waiting.shift()!();
    }
    // A host's state outlives its last task only while its delay still runs.
    if (state.active === 0 && state.waiting.length === 0 && now() >= state.nextStartAt) hosts.delete(host);
  }

  return {
    async schedule(host, task, delayMs = options.delayMs) {
      let state = hosts.get(host);
      if (!state) {
        state = { active: 0, nextStartAt: 0, waiting: [], timer: undefined };
        hosts.set(host, state);
      }
      const hostState = state;
      await new Promise<void>((resolve) => {
        hostState.waiting.push(() => {
          hostState.nextStartAt = now() + Math.max(delayMs, options.delayMs);
          resolve();
        });
        pump(host, hostState);
      });
      try {
        return await task();
      } finally {
        hostState.active--;
        pump(host, hostState);
      }
    },
  };
}
