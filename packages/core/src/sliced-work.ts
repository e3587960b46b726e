/**
 * CPU-bound work written as a generator that `yield`s at safe points (every few hundred steps), so one
 * implementation can run at once (tests, small inputs) or in slices that give the event loop a turn:
 * no request, lock renewal or health check waits behind a long comparison.
 */
export type SlicedWork<T> = Generator<void, T, void>;

/** Longest stretch sliced work runs before it lets the event loop take a turn. */
export const WORK_SLICE_MS = 10;

/** Runs sliced work to its end at once. */
export function finishNow<T>(work: SlicedWork<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Runs sliced work in stretches of at most about `sliceMs`, yielding to the event loop between them. */
export async function finishInSlices<T>(work: SlicedWork<T>, sliceMs = WORK_SLICE_MS): Promise<T> {
  let sliceStart = performance.now();
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (performance.now() - sliceStart >= sliceMs) {
      // setImmediate runs after pending I/O callbacks, so sockets and timers are served in between.
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}
