import { withTimeout } from '@research/core';

/** How long a close waits for a BullMQ connection that is still starting. */
export const CONNECTION_START_WAIT_MS = 2000;

/**
 * Waits until a BullMQ queue's or worker's connection has started, or has failed to (`ready` is its
 * waitUntilReady()), at most `ms`. BullMQ (5.81) reports a start that fails after close() as an 'error'
 * event when close() has already removed every listener, and that crashes the process: a SIGTERM within
 * milliseconds of a worker's start exited 1. Closing only after the start settled keeps that error with
 * the listeners that log it. True when it settled in time.
 */
export async function settleConnectionStart(ready: Promise<unknown>, ms = CONNECTION_START_WAIT_MS): Promise<boolean> {
  const settled = ready.then(
    () => true,
    () => true,
  );
  return withTimeout(settled, ms, 'waiting for the Redis connection to start').catch(() => false);
}
