/**
 * How long CPU work on the event loop runs before it lets other work in (ms). Well under the 100 ms a
 * request may wait behind such work, so `/health`, lock renewals and other requests stay prompt.
 */
const TIME_SLICE_MS = 10;

/** A pause point for long CPU work (see createPause). */
export type Pause = () => Promise<void>;

/**
 * A pause point for long CPU work on the event loop: `await pause()` in a loop returns at once until
 * `sliceMs` have passed since the last pause that gave way, then lets every pending timer, I/O callback
 * and request run (setImmediate) before the work goes on.
 */
export function createPause(sliceMs = TIME_SLICE_MS): Pause {
  let since = performance.now();
  const resume = (resolve: () => void) =>
    setImmediate(() => {
      since = performance.now();
      resolve();
    });
  return () => (performance.now() - since < sliceMs ? Promise.resolve() : new Promise<void>(resume));
}

/**
 * CPU-bound work written as a generator that `yield`s at safe points (every few hundred steps), so one
 * implementation can run at once (tests, small inputs) or in slices that give the event loop a turn.
 */
export type SlicedWork<T> = Generator<void, T, void>;

/** Runs sliced work to its end at once. */
export function finishNow<T>(work: SlicedWork<T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** Runs sliced work to its end, pausing (see createPause) at its safe points. */
export async function finishInSlices<T>(work: SlicedWork<T>, pause: Pause = createPause()): Promise<T> {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await pause();
  }
}
