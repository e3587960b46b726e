import { DependencyUnavailableError, isDependencyUnavailable, isRunning } from '@research/core';
import {
  findRunById,
  findRunProgress,
  finishRun,
  releaseRunAttempt,
  type Database,
  type RunRow,
} from '@research/database';
import { redactText, type Logger, type Metrics } from '@research/observability';
import type { DeferredMetrics } from './step-metrics';
import type { StopReason } from './step-guard';

/** What the runner needs of its process to start, stop and end runs. */
export interface RunnerDeps {
  db: Database;
  metrics: Metrics;
  now: () => number;
  maxRunAttempts: number;
  publishMetrics: () => Promise<unknown>;
}

const MAX_ERROR_LENGTH = 2000;

/** The exception text stored as the run's `error` (SPEC 3), without secrets. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return (
    redactText(text)
      .replace(/\u0000/g, '')
      .slice(0, MAX_ERROR_LENGTH) || 'Pipeline failed'
  );
}

/** The error text of a run that ran out of its duration budget. */
export function durationExceeded(seconds: number): string {
  return `Research duration budget of ${seconds} s exceeded`;
}

/**
 * What a pick-up whose run lock was lost ends with: an outage of the database (or of the way to it). The
 * queue retries it as one, and that pick-up goes on with this attempt.
 */
export function lockLostError(lost: AbortSignal): DependencyUnavailableError {
  return new DependencyUnavailableError('The run lock was lost with its database connection', { cause: lost.reason });
}

/** Seconds since the run started (or was created), for research_duration_seconds. */
export function secondsSince(deps: RunnerDeps, run: RunRow): number {
  const start = (run.started_at ?? run.created_at).getTime();
  return Math.max(0, (deps.now() - start) / 1000);
}

/**
 * Ends a live run: the metrics of its end are recorded (`count`) and published before the commit that makes
 * the end visible. (A COMMIT that fails after that point, the connection lost at that very moment, leaves
 * them counted: the one window where a count can be one too high.)
 */
export async function endRun(
  deps: RunnerDeps,
  runId: string,
  outcome: Parameters<typeof finishRun>[2],
  count: () => void,
): Promise<boolean> {
  return deps.db.transaction().execute(async (trx) => {
    if (!(await finishRun(trx, runId, outcome))) return false;
    count();
    await deps.publishMetrics();
    return true;
  });
}

/** Fails a live run with `error` at `step`; `counted` holds the failed step's metrics. */
export async function failRun(
  deps: RunnerDeps,
  run: RunRow,
  failure: { error: string; step: string; counted?: DeferredMetrics },
  log: Logger,
): Promise<boolean> {
  const ended = await endRun(deps, run.id, { state: 'failed', error: failure.error, failedStep: failure.step }, () => {
    failure.counted?.flush();
    deps.metrics.researchFinished('failed', secondsSince(deps, run));
  });
  if (ended) log.warn('research run failed', { failed_step: failure.step, error: failure.error });
  return ended;
}

/** Why a step's commit found the run changed under it: cancelled (or hidden), or advanced by another worker. */
export async function whyNotCommitted(db: Database, runId: string): Promise<StopReason> {
  const progress = await findRunProgress(db, runId);
  return !progress || progress.is_hidden || !isRunning(progress.state) ? 'cancelled' : 'superseded';
}

/** Gives the run back to the queue for another worker (a shutdown, or a lost run lock: `at.lockLost`). */
export async function handBack(
  deps: RunnerDeps,
  runId: string,
  at: { step: string; round: number; lockLost: AbortSignal | undefined },
  log: Logger,
): Promise<'handed_back'> {
  // A lost lock ends the pick-up as an outage (runResearchJob logs it).
  if (at.lockLost?.aborted) throw lockLostError(at.lockLost);
  // A shutdown is no failed attempt: give back the attempt this pick-up (or the pick-up before the outage it
  // continues) counted. When the database does not answer, the count stays one higher.
  await releaseRunAttempt(deps.db, runId).catch(() => undefined);
  log.info('handing the research run back for another worker', { step: at.step, round: at.round });
  return 'handed_back';
}

/**
 * A pick-up that threw. An unreachable database or Redis is nothing wrong with the run: the queue tries again
 * once they are back, without spending an attempt. Other errors are retried by the queue from the checkpoint;
 * on the last attempt the run is ended honestly instead of being left to spin.
 */
export async function endPickUpOnError(
  deps: RunnerDeps,
  error: unknown,
  at: { runId: string; run: RunRow | undefined; step: string; lastAttempt: boolean },
  log: Logger,
): Promise<'done'> {
  if (!at.lastAttempt || isDependencyUnavailable(error)) throw error;
  log.error('research job failed on its last attempt', { error, step: at.step });
  const latest = (await findRunById(deps.db, at.runId).catch(() => undefined)) ?? at.run;
  if (latest) await failRun(deps, latest, { error: errorText(error), step: at.step }, log).catch(() => undefined);
  return 'done';
}
