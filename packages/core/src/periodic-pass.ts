/** A pass a process runs on a timer (the reconciler, the webhook dispatcher, the plan review sweep). */
export interface PeriodicPass<T> {
  /** One pass now; concurrent calls, and the timer's, share the pass in flight. */
  runOnce(): Promise<T>;
  /** Stops the timer and waits for a pass in flight. */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `intervalMs` (and at once with `immediate`), never two at a time: a tick while a pass is in
 * flight joins it. `pass` is handed `stopping`, true once stop() was called, to end a long pass early. The
 * timer never keeps the process alive; `pass` is expected to catch its own failures.
 */
export function startPeriodicPass<T>(
  pass: (stopping: () => boolean) => Promise<T>,
  options: { intervalMs: number; immediate?: boolean },
): PeriodicPass<T> {
  let inFlight: Promise<T> | undefined;
  let stopped = false;
  const stopping = () => stopped;
  const runOnce = () => {
    inFlight ??= pass(stopping).finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
  const timer = setInterval(() => {
    if (!stopped) void runOnce();
  }, options.intervalMs);
  timer.unref();
  if (options.immediate) void runOnce();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}
