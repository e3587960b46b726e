import { isRunning } from '@research/core';
import { findRunById, transitionRun, tryLockRun, type Database, type RunRow } from '@research/database';
import type { Logger, Metrics } from '@research/observability';
import type { ResearchJobContext, ResearchJobHandler, ResearchJobOutcome } from '@research/queue';
import { runBudgetOf, type RunBudget } from './budget';
import {
  checkpointAfter,
  isLastStep,
  nextStep,
  readCheckpoint,
  type PipelineCheckpoint,
  type StepPosition,
} from './checkpoint';
import {
  durationExceeded,
  endPickUpOnError,
  endRun,
  errorText,
  failRun,
  handBack,
  lockLostError,
  secondsSince,
  whyNotCommitted,
  type RunnerDeps,
} from './run-lifecycle';
import { awaitsReview } from './plan-review';
import { commitStep, computeStep, readSnapshot } from './step-commit';
import { guardStep, type StopReason } from './step-guard';
import { deferMetrics } from './step-metrics';
import { progressRows, noteRows, type ProgressEvent } from './progress';
import type { AnyStepModule, ResearchServices, StepContext } from './steps';
import { RESEARCH_STEPS, STEP_STATE, type PipelineStep, type PipelineSteps } from './steps/index';

export interface ResearchRunnerOptions {
  db: Database;
  /** The process's search provider, crawler and LLM client the steps reach the world through. */
  services: ResearchServices;
  /** Replacements of registered steps (tests script a step this way). */
  steps?: Partial<PipelineSteps>;
  metrics: Metrics;
  logger: Logger;
  /** Milliseconds since the epoch (tests may move time). */
  clock?: () => number;
  /**
   * A small pool of its own for run locks (Postgres servers only; leave unset for the embedded database,
   * which is single-process). With it, a run is worked on by at most one live process at a time.
   */
  lockDb?: Database;
  /** How often a running step checks for cancellation (default 500 ms). */
  pollIntervalMs?: number;
  /**
   * Pick-ups of one run (crashes included; hand-backs and pick-ups that continue one an outage stopped not)
   * before it is ended as failed (default 5). A run that keeps meeting outages is bounded by its duration budget.
   */
  maxRunAttempts?: number;
  /**
   * Makes what `metrics` counted visible fleet-wide (the worker's FleetMetrics.publish). Called inside a
   * step's transaction, after its counts are recorded and before the commit that makes the step visible,
   * so a client that sees a state and then scrapes /metrics finds it counted. Must never throw and must
   * return quickly (it holds the run's row lock).
   */
  publishMetrics?: () => Promise<unknown>;
}

interface Runner extends RunnerDeps {
  /** The registered step modules by name, with a test's replacements of their work. */
  steps: ReadonlyMap<PipelineStep, AnyStepModule>;
  services: ResearchServices;
  pollIntervalMs: number;
}

/** What the job handler hands a pick-up: the queue's job, its logger, and the run lock's loss. */
interface PickUpRequest {
  job: ResearchJobContext;
  log: Logger;
  /** Aborted when the run lock is lost (only with a lock pool). */
  lockLost: AbortSignal | undefined;
}

/** One pick-up of a run: where it stands, as the runner advances it step by step. */
interface PickUp extends PickUpRequest {
  run: RunRow;
  checkpoint: PipelineCheckpoint;
  budget: RunBudget;
  seq: number;
  /** Epoch milliseconds the run's duration budget ends at. */
  deadline: number;
  /** The run is already in the state of the step about to run (the pick-up's first step). */
  inState: boolean;
}

/**
 * `next`: the step committed and more follow; `done`: the run ended (completed or failed); `paused`: the plan
 * committed and the run awaits its review.
 */
type StepResult = 'next' | 'done' | 'paused' | StopReason;

/**
 * Starts a pick-up of the live run `found`: ends a run that crashed too often, moves the run into its next
 * step's state (counting the attempt unless this pick-up continues one an outage stopped). Null: nothing to do.
 */
async function beginPickUp(
  r: Runner,
  found: RunRow,
  checkpoint: PipelineCheckpoint,
  request: PickUpRequest,
): Promise<PickUp | null> {
  const { job, log } = request;
  const runId = found.id;
  const position = nextStep(checkpoint);
  // A pick-up after an outage goes on with the attempt the outage interrupted: counting it would let a
  // few outages (or dropped connections) use up a healthy run's attempts.
  const countAttempt = !job.afterOutage;
  if (countAttempt && found.attempts >= r.maxRunAttempts) {
    // Crashed this many times: end it honestly instead of picking it up forever.
    const error = `Research run abandoned after ${found.attempts} attempts`;
    await failRun(r, found, { error, step: position?.step ?? 'unknown' }, log);
    return null;
  }
  const state = position ? STEP_STATE[position.step] : 'synthesizing';
  if (!(await transitionRun(r.db, runId, state, { started: true, countAttempt }))) return null;
  const run = await findRunById(r.db, runId);
  if (!run) return null;
  log.info(checkpoint.done.length > 0 || checkpoint.round > 1 ? 'research run resumed' : 'research run started', {
    step: position?.step ?? null,
    round: position?.round ?? null,
    rounds: checkpoint.rounds,
    attempt: run.attempts,
  });
  const budget = runBudgetOf(run);
  const deadline = (run.started_at ?? run.created_at).getTime() + budget.max_research_duration_seconds * 1000;
  return { ...request, run, checkpoint, budget, seq: run.checkpoint_seq, deadline, inState: true };
}

/** Why the run must not take its next step: shutdown, duration budget, cancellation or another worker. */
async function stopBeforeStep(r: Runner, p: PickUp, position: StepPosition): Promise<StopReason | null> {
  if (p.job.signal.aborted) return 'shutdown';
  if (r.now() >= p.deadline) return 'budget';
  if (!p.inState && !(await transitionRun(r.db, p.run.id, STEP_STATE[position.step]))) return 'cancelled';
  p.inState = false;
  const fresh = await findRunById(r.db, p.run.id);
  if (!fresh || fresh.is_hidden || !isRunning(fresh.state)) return 'cancelled';
  if (fresh.checkpoint_seq !== p.seq) return 'superseded';
  p.run = fresh;
  return null;
}

/** Runs one step under its guard and commits it with the checkpoint, or says why it stopped. */
async function takeStep(r: Runner, p: PickUp, position: StepPosition): Promise<StepResult> {
  const stop = await stopBeforeStep(r, p, position);
  if (stop) return stop;
  const { run, seq } = p;
  const step = r.steps.get(position.step)!;
  const snapshot = await readSnapshot(r.db, run, step.reads);
  const deferred = deferMetrics(r.metrics);
  const events = [...(p.checkpoint.notes ?? [])];
  const earlier = events.length;
  const progress: ProgressEvent[] = [];
  const budget = p.budget.forStep();
  const started = r.now();
  const stepLog = p.log.child({ step: position.step, round: position.round });
  const ctx: Omit<StepContext, 'signal'> = {
    run,
    budget,
    round: position.round,
    rounds: p.checkpoint.rounds,
    logger: stepLog,
    metrics: deferred.metrics,
    services: r.services,
    usage: budget.usage,
    notes: events,
    note: (note) => void events.push(note),
    progress: (event) => void progress.push(event),
  };
  const guard = { ...r, runId: run.id, expectedSeq: seq, deadline: p.deadline, jobSignal: p.job.signal };
  const outcome = await guardStep(guard, (signal) =>
    computeStep(step, { ctx: { ...ctx, signal }, snapshot, now: new Date(r.now()) }),
  );
  if (outcome.kind === 'aborted') {
    deferred.discard();
    return outcome.reason;
  }
  if (outcome.kind === 'error') {
    // SPEC 3: an exception in the pipeline fails the run with its text; the plan stays readable (the failed
    // step's metrics are counted with the failure).
    await failRun(r, run, { error: errorText(outcome.error), step: position.step, counted: deferred }, p.log);
    return 'done';
  }
  const last = isLastStep(p.checkpoint, position);
  const checkpoint = checkpointAfter(p.checkpoint, position, events);
  const progressed = [...progressRows(progress), ...noteRows(events.slice(earlier))];
  const commit = { run, budget, seq, computed: outcome.value, checkpoint, last, deferred, progress: progressed };
  const counts = await commitStep(r, commit);
  if (!counts) {
    deferred.discard();
    return whyNotCommitted(r.db, run.id);
  }
  p.seq = seq + 1;
  p.budget = budget;
  p.checkpoint = checkpoint;
  stepLog.info('step committed', { duration_ms: r.now() - started, state: step.state });
  if (last) p.log.info('research run completed', counts);
  return last ? 'done' : counts.paused ? 'paused' : 'next';
}

/** The one place a run stops short of its end: hand it back, fail it for its duration, or leave it. */
async function stopRun(r: Runner, p: PickUp, position: StepPosition, reason: StopReason): Promise<ResearchJobOutcome> {
  switch (reason) {
    case 'shutdown':
      return handBack(r, p.run.id, { step: position.step, round: position.round, lockLost: p.lockLost }, p.log);
    case 'budget':
      await failRun(
        r,
        p.run,
        { error: durationExceeded(p.budget.max_research_duration_seconds), step: position.step },
        p.log,
      );
      return 'done';
    case 'superseded':
      p.log.info('another worker advanced this run; stopping', { step: position.step });
      return 'done';
    case 'cancelled':
      p.log.info('research run was cancelled; its step output is discarded', { step: position.step });
      return 'done';
  }
}

/**
 * One pick-up of a run: a loop over the steps still to do, each committed with the checkpoint before the
 * next; every way of stopping short goes through stopRun.
 */
async function execute(r: Runner, runId: string, request: PickUpRequest): Promise<ResearchJobOutcome> {
  const { job, log } = request;
  const found = await findRunById(r.db, runId);
  if (!found || found.is_hidden || !isRunning(found.state) || awaitsReview(found)) return 'done';
  const stored = readCheckpoint(found.checkpoint, runBudgetOf(found).rounds);
  let position = nextStep(stored);
  let p: PickUp | null = null;
  try {
    p = await beginPickUp(r, found, stored, request);
    if (!p) return 'done';
    for (; position; position = nextStep(p.checkpoint)) {
      const result = await takeStep(r, p, position);
      if (result === 'done') return 'done';
      // The run awaits the review of its plan: its job ends (the queue then calls requeueIfApproved).
      if (result === 'paused') return logPause(request);
      if (result !== 'next') return await stopRun(r, p, position, result);
    }
    // Every step was committed but the run is still live (written by an older version): complete it.
    const run = p.run;
    await endRun(r, runId, { state: 'completed' }, () => r.metrics.researchFinished('completed', secondsSince(r, run)));
    return 'done';
  } catch (error) {
    const at = {
      runId,
      run: p?.run ?? found,
      step: position?.step ?? 'unknown',
      lastAttempt: job.attempt >= job.maxAttempts,
    };
    return endPickUpOnError(r, error, at, log);
  }
}

/** The end of a pick-up whose plan commit stopped the run for review: no worker slot is held while it waits. */
function logPause(request: PickUpRequest): ResearchJobOutcome {
  request.log.info('research run awaits the review of its plan');
  return 'paused';
}

/** The registered step modules by name, the work of those `replaced` names swapped (their reads and records kept). */
function stepsWith(replaced: Partial<PipelineSteps> = {}): ReadonlyMap<PipelineStep, AnyStepModule> {
  return new Map(
    RESEARCH_STEPS.map((m): [PipelineStep, AnyStepModule] => {
      const compute = replaced[m.name] as AnyStepModule['compute'] | undefined;
      return [m.name, compute ? { ...m, compute } : m];
    }),
  );
}

/**
 * Builds the research job handler. It moves a run through the states of CONTRACT 4 one step at a time:
 * before each step it reads what is committed from Postgres; after it, the step's records, the checkpoint
 * (optimistic on checkpoint_seq, only while the run is live) and the run's counters commit in one
 * transaction. So a worker that dies loses at most the step it was in, and the next one resumes after
 * the last committed step. Every state write is conditional: a cancelled or hidden run is never revived.
 *
 * Rounds: planning happens once; each round then searches, fetches, analyzes, compares and synthesizes.
 * The report is stored only by the last round's synthesis, in the transaction that completes the run,
 * so a report exists exactly for completed runs; earlier rounds' syntheses are interim reviews (the step
 * sees ctx.round < ctx.rounds) and are not stored.
 */
export function createResearchRunner(options: ResearchRunnerOptions): ResearchJobHandler {
  const r: Runner = {
    db: options.db,
    metrics: options.metrics,
    now: options.clock ?? Date.now,
    maxRunAttempts: options.maxRunAttempts ?? 5,
    publishMetrics: options.publishMetrics ?? (async () => undefined),
    steps: stepsWith(options.steps),
    services: options.services,
    pollIntervalMs: options.pollIntervalMs ?? 500,
  };
  return async function runResearchJob(payload, job) {
    const runId = payload.research_id;
    const log =
      job.logger ??
      options.logger.child({ research_id: runId, job_id: job.id, request_id: payload.request_id ?? null });
    const run = await findRunById(r.db, runId);
    if (!run || run.is_hidden || !isRunning(run.state) || awaitsReview(run)) {
      log.info('research run needs no work', { state: run?.state ?? null, hidden: run?.is_hidden ?? null });
      return 'done';
    }
    if (!options.lockDb) return execute(r, runId, { job, log, lockLost: undefined });
    const lock = await tryLockRun(options.lockDb, runId);
    if (!lock) return 'busy';
    try {
      // A lost run lock stops the run as a shutdown does: another worker may hold the run by now.
      const signal = AbortSignal.any([job.signal, lock.lost]);
      const work = execute(r, runId, { job: { ...job, signal }, log, lockLost: lock.lost });
      return await Promise.race([work, whenLost(lock.lost, work, log)]);
    } finally {
      await lock.release();
    }
  };
}

/**
 * Rejects as an outage when the run lock is lost. The lock usually goes with the whole connection to the
 * database: a query of this pick-up may wait on it for minutes (TCP keepalive). The pick-up ends at once;
 * the run's conditional writes keep whatever it still does when that query returns from counting (it stops
 * at its next check).
 */
function whenLost(lost: AbortSignal, work: Promise<unknown>, log: Logger): Promise<never> {
  work.catch(() => undefined);
  return new Promise<never>((_, reject) => {
    const stop = () => {
      log.warn('run lock lost with its database connection; handing the research run back', { error: lost.reason });
      reject(lockLostError(lost));
    };
    if (lost.aborted) stop();
    else lost.addEventListener('abort', stop, { once: true });
  });
}
