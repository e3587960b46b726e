import { isRunning } from '@research/core';
import { findRunProgress, type Database } from '@research/database';

/** Why a run stops before its steps are done (besides failing or completing). */
export type StopReason = 'cancelled' | 'budget' | 'shutdown' | 'superseded';

class StepAbort extends Error {
  constructor(readonly reason: StopReason) {
    super(`step aborted: ${reason}`);
    this.name = 'StepAbort';
  }
}

export type StepOutcome<T> =
  { kind: 'ok'; value: T } | { kind: 'aborted'; reason: StopReason } | { kind: 'error'; error: unknown };

export interface StepGuard {
  db: Database;
  runId: string;
  /** The checkpoint_seq the step builds on: another value means another worker advanced the run. */
  expectedSeq: number;
  /** Epoch milliseconds the run's duration budget ends at. */
  deadline: number;
  /** Aborted when the process shuts down (or loses its run lock). */
  jobSignal: AbortSignal;
  pollIntervalMs: number;
  now: () => number;
}

/**
 * Runs one step with an abort signal for cancellation (polled), the duration budget and shutdown. Whatever
 * a step returns once its signal was aborted may be partial: it is never returned as a result.
 */
export async function guardStep<T>(g: StepGuard, call: (signal: AbortSignal) => Promise<T>): Promise<StepOutcome<T>> {
  const controller = new AbortController();
  const abort = (reason: StopReason) => {
    if (!controller.signal.aborted) controller.abort(new StepAbort(reason));
  };
  // Listened to before anything can abort: an abort event is never replayed to a late listener, and a step
  // that saw its signal aborted (the crawler refuses every page then) returns an empty, committable result.
  const aborted = new Promise<never>((_, reject) => {
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
  });
  aborted.catch(() => undefined);
  const onShutdown = () => abort('shutdown');
  g.jobSignal.addEventListener('abort', onShutdown, { once: true });
  // The shutdown may have come while the runner read the snapshot, after the loop's own check.
  if (g.jobSignal.aborted) abort('shutdown');
  const budgetTimer = setTimeout(() => abort('budget'), Math.min(Math.max(0, g.deadline - g.now()), 2 ** 31 - 1));
  const poller = pollProgress(g, abort);
  try {
    if (controller.signal.aborted) throw controller.signal.reason;
    const work = call(controller.signal);
    // A step that ignores its signal is left behind; its late result or error is dropped.
    work.catch(() => undefined);
    const value = await Promise.race([work, aborted]);
    if (controller.signal.aborted) throw controller.signal.reason;
    return { kind: 'ok', value };
  } catch (error) {
    if (!controller.signal.aborted) return { kind: 'error', error };
    const reason: unknown = controller.signal.reason;
    return { kind: 'aborted', reason: reason instanceof StepAbort ? reason.reason : 'cancelled' };
  } finally {
    clearTimeout(budgetTimer);
    clearInterval(poller);
    g.jobSignal.removeEventListener('abort', onShutdown);
  }
}

/** Polls the run while a step works: cancelled, hidden or advanced by another worker aborts the step. */
function pollProgress(g: StepGuard, abort: (reason: StopReason) => void): NodeJS.Timeout {
  let polling = false;
  return setInterval(() => {
    if (polling) return;
    polling = true;
    findRunProgress(g.db, g.runId)
      .then((progress) => {
        if (!progress || progress.is_hidden || !isRunning(progress.state)) abort('cancelled');
        else if (progress.checkpoint_seq !== g.expectedSeq) abort('superseded');
      })
      // A failed poll is no cancellation; the commit's conditions still protect the run.
      .catch(() => undefined)
      .finally(() => {
        polling = false;
      });
  }, g.pollIntervalMs);
}
