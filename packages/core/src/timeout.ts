/** Raised by withTimeout; readiness reports it as `error:TimeoutError`. */
export class TimeoutError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} timed out after ${ms} ms`);
    this.name = 'TimeoutError';
  }
}

/**
 * Settles with `promise`, or rejects with TimeoutError after `ms` (the work itself is not cancelled). The
 * timer is cleared either way and never keeps the process alive; the race handles a later rejection of the
 * losing promise, so it never surfaces as an unhandled rejection.
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(what, ms)), ms);
    timer.unref();
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * An abort signal that fires after `ms` on a timer of the process's own (unlike AbortSignal.timeout, a test's
 * fake timers tick it), and `clear` to drop the timer once the work is over.
 */
export function deadlineSignal(ms: number): { signal: AbortSignal; clear(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), ms);
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}
