/**
 * Jest's fake timers for setTimeout and setInterval only: sockets, streams, setImmediate, promise jobs and the
 * clocks stay real, so a test can tick a timeout or a backoff of code that talks to a real server.
 */
export function fakeTimeoutsOnly(): void {
  jest.useFakeTimers({
    doNotFake: ['nextTick', 'setImmediate', 'clearImmediate', 'queueMicrotask', 'Date', 'hrtime', 'performance'],
  });
}

/** Whether `promise` has settled by the event loop's next turn (after the I/O callbacks already due). */
export async function settlesBeforeNextTurn(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}
