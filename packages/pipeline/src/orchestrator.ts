import { DependencyUnavailableError, STEP_STATE, isDependencyUnavailable, isRunning, planSchema } from '@research/core';
import {
  advanceCheckpoint,
  findRunById,
  findRunProgress,
  finishRun,
  listClaims,
  listEvidence,
  listSearchResults,
  listSources,
  refreshRunCounts,
  releaseRunAttempt,
  transitionRun,
  tryLockRun,
  type Database,
  type RunRow,
} from '@research/database';
import { redactText, type Logger, type Metrics } from '@research/observability';
import { runBudgetOf } from './budget';
import {
  checkpointAfter,
  isLastStep,
  nextStep,
  readCheckpoint,
  type PipelineCheckpoint,
  type StepPosition,
} from './checkpoint';
import { deferMetrics, type DeferredMetrics } from './step-metrics';
import {
  claimRows,
  cleanJson,
  evidenceRows,
  reportRecord,
  searchResultRows,
  sourceRows,
  writeClaims,
  writeEvidence,
  writeReport,
  writeSearchResults,
  writeSources,
} from './step-records';
import type { PipelineSteps, ResearchServices, RunSnapshot, StepContext } from './steps';
import { RESEARCH_STEPS } from './steps/index';

/** What the queue tells the runner about the job (structurally the queue's ResearchJobContext). */
export interface RunnerJob {
  id: string;
  attempt: number;
  maxAttempts: number;
  /** The previous pick-up stopped at an outage: this one continues its attempt (counts none, checks no limit). */
  afterOutage?: boolean;
  signal: AbortSignal;
  logger?: Logger;
}

/** `done`: nothing left for this job; `handed_back`: stopped for a shutdown; `busy`: a live worker holds the run. */
export type RunnerOutcome = 'done' | 'handed_back' | 'busy';

/** A research job handler (assignable to the queue's ResearchJobHandler). */
export type ResearchRunner = (
  payload: { research_id: string; request_id?: string | undefined },
  job: RunnerJob,
) => Promise<RunnerOutcome>;

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

type AbortReason = 'cancelled' | 'budget' | 'shutdown' | 'superseded';

/**
 * What a pick-up whose run lock was lost ends with: an outage of the database (or of the way to it). The
 * queue retries it as one, and that pick-up goes on with this attempt.
 */
function lockLostError(lost: AbortSignal): DependencyUnavailableError {
  return new DependencyUnavailableError('The run lock was lost with its database connection', { cause: lost.reason });
}

class StepAbort extends Error {
  constructor(readonly reason: AbortReason) {
    super(`step aborted: ${reason}`);
    this.name = 'StepAbort';
  }
}

type StepOutcome<T> =
  { kind: 'ok'; value: T } | { kind: 'aborted'; reason: AbortReason } | { kind: 'error'; error: unknown };

const MAX_ERROR_LENGTH = 2000;

/** The exception text stored as the run's `error` (SPEC 3), without secrets. */
function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return (
    redactText(text)
      .replace(/\u0000/g, '')
      .slice(0, MAX_ERROR_LENGTH) || 'Pipeline failed'
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
 * so a report exists exactly for completed runs; earlier rounds' syntheses are the engine's interim
 * review (it sees ctx.round < ctx.rounds) and are not stored.
 */
export function createResearchRunner(options: ResearchRunnerOptions): ResearchRunner {
  const { db, services, metrics, logger } = options;
  const steps: PipelineSteps = { ...RESEARCH_STEPS, ...options.steps };
  const now = options.clock ?? Date.now;
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const maxRunAttempts = options.maxRunAttempts ?? 5;
  const publishMetrics = options.publishMetrics ?? (async () => undefined);

  function secondsSince(run: RunRow): number {
    const start = (run.started_at ?? run.created_at).getTime();
    return Math.max(0, (now() - start) / 1000);
  }

  /**
   * Ends a live run: the metrics of its end (and `counted`, the failed step's) are recorded and published
   * before the commit that makes the end visible. (A COMMIT that fails after that point, the connection
   * lost at that very moment, leaves them counted: the one window where a count can be one too high.)
   */
  async function endRun(runId: string, outcome: Parameters<typeof finishRun>[2], count: () => void): Promise<boolean> {
    return db.transaction().execute(async (trx) => {
      if (!(await finishRun(trx, runId, outcome))) return false;
      count();
      await publishMetrics();
      return true;
    });
  }

  async function failRun(
    run: RunRow,
    error: string,
    step: string,
    log: Logger,
    counted?: DeferredMetrics,
  ): Promise<boolean> {
    const ended = await endRun(run.id, { state: 'failed', error, failedStep: step }, () => {
      counted?.flush();
      metrics.researchFinished('failed', secondsSince(run));
    });
    if (ended) log.warn('research run failed', { failed_step: step, error });
    return ended;
  }

  async function readSnapshot(runId: string, run: RunRow): Promise<RunSnapshot> {
    const [searchResults, sources, claims, evidence] = await Promise.all([
      listSearchResults(db, runId),
      listSources(db, runId),
      listClaims(db, runId),
      listEvidence(db, runId),
    ]);
    const plan = run.plan ? planSchema.safeParse(run.plan) : null;
    return { plan: plan?.success ? plan.data : null, searchResults, sources, claims, evidence };
  }

  /** Runs one step call with an abort signal for cancellation, the duration budget and shutdown. */
  async function runStep<T>(
    runId: string,
    expectedSeq: number,
    deadline: number,
    jobSignal: AbortSignal,
    call: (signal: AbortSignal) => Promise<T>,
  ): Promise<StepOutcome<T>> {
    const controller = new AbortController();
    const abort = (reason: AbortReason) => {
      if (!controller.signal.aborted) controller.abort(new StepAbort(reason));
    };
    // Listened to before anything can abort: an abort event is never replayed to a late listener, and a step
    // that saw its signal aborted (the crawler refuses every page then) returns an empty, committable result.
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
    aborted.catch(() => undefined);
    const onShutdown = () => abort('shutdown');
    jobSignal.addEventListener('abort', onShutdown, { once: true });
    // The shutdown may have come while the runner read the snapshot, after the loop's own check.
    if (jobSignal.aborted) abort('shutdown');
    const budgetTimer = setTimeout(() => abort('budget'), Math.min(Math.max(0, deadline - now()), 2 ** 31 - 1));
    let polling = false;
    const poller = setInterval(() => {
      if (polling) return;
      polling = true;
      findRunProgress(db, runId)
        .then((progress) => {
          if (!progress || progress.is_hidden || !isRunning(progress.state)) abort('cancelled');
          else if (progress.checkpoint_seq !== expectedSeq) abort('superseded');
        })
        // A failed poll is no cancellation; the commit's conditions still protect the run.
        .catch(() => undefined)
        .finally(() => {
          polling = false;
        });
    }, pollIntervalMs);
    try {
      if (controller.signal.aborted) throw controller.signal.reason;
      const work = call(controller.signal);
      // A step that ignores its signal is left behind; its late result or error is dropped.
      work.catch(() => undefined);
      const value = await Promise.race([work, aborted]);
      // Whatever a step returns once its signal was aborted may be partial: it is never committed.
      if (controller.signal.aborted) throw controller.signal.reason;
      return { kind: 'ok', value };
    } catch (error) {
      if (controller.signal.aborted) {
        const reason = controller.signal.reason;
        return { kind: 'aborted', reason: reason instanceof StepAbort ? reason.reason : 'cancelled' };
      }
      return { kind: 'error', error };
    } finally {
      clearTimeout(budgetTimer);
      clearInterval(poller);
      jobSignal.removeEventListener('abort', onShutdown);
    }
  }

  /** Computes one step and returns the function that writes its records in the transaction. */
  async function computeStep(
    position: StepPosition,
    ctx: StepContext,
    snapshot: RunSnapshot,
  ): Promise<{
    write: (trx: Parameters<typeof writeSources>[0]) => Promise<void>;
    plan?: Record<string, unknown>;
  }> {
    const { run } = ctx;
    switch (position.step) {
      case 'plan': {
        const plan = planSchema.parse(await steps.plan(snapshot, ctx));
        return { write: async () => undefined, plan: cleanJson(plan) };
      }
      case 'search': {
        const rows = searchResultRows(run, position.round, await steps.search(snapshot, ctx), snapshot);
        return { write: (trx) => writeSearchResults(trx, rows) };
      }
      case 'fetch': {
        const rows = sourceRows(
          run,
          position.round,
          await steps.fetch(snapshot, ctx),
          snapshot,
          ctx.budget,
          new Date(now()),
        );
        return { write: (trx) => writeSources(trx, rows) };
      }
      case 'analyze': {
        const rows = claimRows(run, position.round, await steps.analyze(snapshot, ctx), snapshot);
        return { write: (trx) => writeClaims(trx, rows) };
      }
      case 'compare': {
        const rows = evidenceRows(run, await steps.compare(snapshot, ctx), snapshot);
        return { write: (trx) => writeEvidence(trx, run.id, rows) };
      }
      case 'synthesize': {
        const body = await steps.synthesize(snapshot, ctx);
        if (position.round < ctx.rounds) return { write: async () => undefined };
        const record = reportRecord(run, body, snapshot, new Date(now()));
        return { write: (trx) => writeReport(trx, run.id, record) };
      }
    }
  }

  async function execute(
    runId: string,
    log: Logger,
    job: RunnerJob,
    lockLost: AbortSignal | undefined,
  ): Promise<RunnerOutcome> {
    let run = await findRunById(db, runId);
    if (!run || run.is_hidden || !isRunning(run.state)) return 'done';
    let budget = runBudgetOf(run);
    let checkpoint: PipelineCheckpoint = readCheckpoint(run.checkpoint, budget.rounds);
    let position = nextStep(checkpoint);
    let currentStep: string = position?.step ?? 'unknown';
    // A pick-up after an outage goes on with the attempt the outage interrupted: counting it would let a
    // few outages (or dropped connections) use up a healthy run's attempts.
    const countsAttempt = job.afterOutage !== true;
    try {
      if (countsAttempt && run.attempts >= maxRunAttempts) {
        // Crashed this many times: end it honestly instead of picking it up forever.
        await failRun(run, `Research run abandoned after ${run.attempts} attempts`, currentStep, log);
        return 'done';
      }
      const firstState = position ? STEP_STATE[position.step] : 'synthesizing';
      if (!(await transitionRun(db, runId, firstState, { started: true, countAttempt: countsAttempt }))) return 'done';
      run = await findRunById(db, runId);
      if (!run) return 'done';
      let seq = run.checkpoint_seq;
      budget = runBudgetOf(run);
      const deadline = (run.started_at ?? run.created_at).getTime() + budget.max_research_duration_seconds * 1000;
      log.info(checkpoint.done.length > 0 || checkpoint.round > 1 ? 'research run resumed' : 'research run started', {
        step: position?.step ?? null,
        round: position?.round ?? null,
        rounds: checkpoint.rounds,
        attempt: run.attempts,
      });
      let transitioned = true;

      while (position) {
        currentStep = position.step;
        if (job.signal.aborted) return await handBack(runId, log, position, lockLost);
        if (now() >= deadline) {
          await failRun(
            run,
            `Research duration budget of ${budget.max_research_duration_seconds} s exceeded`,
            position.step,
            log,
          );
          return 'done';
        }
        if (!transitioned && !(await transitionRun(db, runId, STEP_STATE[position.step]))) {
          log.info('research run was cancelled; stopping', { step: position.step });
          return 'done';
        }
        transitioned = false;
        const fresh = await findRunById(db, runId);
        if (!fresh || fresh.is_hidden || !isRunning(fresh.state)) {
          log.info('research run was cancelled; stopping', { step: position.step });
          return 'done';
        }
        if (fresh.checkpoint_seq !== seq) {
          log.info('another worker advanced this run; stopping', { step: position.step });
          return 'done';
        }
        run = fresh;
        const snapshot = await readSnapshot(runId, run);
        const deferred = deferMetrics(metrics);
        const stepLog = log.child({ step: position.step, round: position.round });
        const events = [...(checkpoint.notes ?? [])];
        const stepBudget = budget.forStep();
        const pos = position;
        const stepRun = run;
        const started = now();
        const outcome = await runStep(runId, seq, deadline, job.signal, (signal) =>
          computeStep(
            pos,
            {
              run: stepRun,
              budget: stepBudget,
              round: pos.round,
              rounds: checkpoint.rounds,
              signal,
              logger: stepLog,
              metrics: deferred.metrics,
              services,
              usage: stepBudget.usage,
              events,
              record: (event) => void events.push(event),
            },
            snapshot,
          ),
        );

        if (outcome.kind === 'aborted') {
          deferred.discard();
          switch (outcome.reason) {
            case 'shutdown':
              return await handBack(runId, log, position, lockLost);
            case 'budget':
              await failRun(
                run,
                `Research duration budget of ${budget.max_research_duration_seconds} s exceeded`,
                position.step,
                log,
              );
              return 'done';
            case 'superseded':
              log.info('another worker advanced this run; stopping', { step: position.step });
              return 'done';
            case 'cancelled':
              log.info('research run was cancelled during a step; its output is discarded', { step: position.step });
              return 'done';
          }
        }
        if (outcome.kind === 'error') {
          // SPEC 3: an exception in the pipeline fails the run with its text; the plan stays readable.
          await failRun(run, errorText(outcome.error), position.step, log, deferred);
          return 'done';
        }

        const last = isLastStep(checkpoint, position);
        const nextCheckpoint = checkpointAfter(checkpoint, position, events);
        const { write, plan } = outcome.value;
        const committed = await db.transaction().execute(async (trx) => {
          // The checkpoint first: it takes the run's row lock, so a concurrent cancel waits for this commit
          // or wins before it (then nothing below is written).
          const advanced = await advanceCheckpoint(trx, runId, seq, nextCheckpoint, {
            ...(plan ? { plan } : {}),
            usage: stepBudget.usage,
          });
          if (!advanced) return false;
          await write(trx);
          await refreshRunCounts(trx, runId);
          if (last) await finishRun(trx, runId, { state: 'completed' });
          // Counted before the commit makes the step (or the run's end) visible; see endRun.
          deferred.flush();
          if (last) {
            metrics.sourcesFetched(snapshot.sources.length);
            metrics.claimsExtracted(snapshot.claims.length);
            metrics.researchFinished('completed', secondsSince(stepRun));
          }
          await publishMetrics();
          return true;
        });
        if (!committed) {
          deferred.discard();
          const progress = await findRunProgress(db, runId);
          const cancelled = !progress || progress.is_hidden || !isRunning(progress.state);
          log.info(
            cancelled
              ? 'research run was cancelled; step output discarded'
              : 'another worker advanced this run; stopping',
            {
              step: position.step,
            },
          );
          return 'done';
        }
        seq += 1;
        budget = stepBudget;
        checkpoint = nextCheckpoint;
        stepLog.info('step committed', { duration_ms: now() - started, state: STEP_STATE[position.step] });
        if (last) {
          log.info('research run completed', { sources: snapshot.sources.length, claims: snapshot.claims.length });
          return 'done';
        }
        position = nextStep(checkpoint);
      }
      // Every step was committed but the run is still live (written by an older version): complete it.
      const finished = run;
      await endRun(runId, { state: 'completed' }, () => metrics.researchFinished('completed', secondsSince(finished)));
      return 'done';
    } catch (error) {
      // An unreachable database or Redis is nothing wrong with the run: the queue tries again once they are
      // back, without spending an attempt. Other errors are retried by the queue from the checkpoint; on the
      // last attempt the run is ended honestly instead of being left to spin.
      if (job.attempt >= job.maxAttempts && !isDependencyUnavailable(error)) {
        log.error('research job failed on its last attempt', { error, step: currentStep });
        const latest = (await findRunById(db, runId).catch(() => undefined)) ?? run;
        if (latest) await failRun(latest, errorText(error), currentStep, log).catch(() => undefined);
        return 'done';
      }
      throw error;
    }
  }

  async function handBack(
    runId: string,
    log: Logger,
    position: StepPosition,
    lockLost: AbortSignal | undefined,
  ): Promise<RunnerOutcome> {
    // A lost lock ends the pick-up as an outage (runResearchJob logs it).
    if (lockLost?.aborted) throw lockLostError(lockLost);
    // A shutdown is no failed attempt: give back the attempt this pick-up (or the pick-up before the outage it
    // continues) counted. When the database does not answer, the count stays one higher.
    await releaseRunAttempt(db, runId).catch(() => undefined);
    log.info('handing the research run back for another worker', { step: position.step, round: position.round });
    return 'handed_back';
  }

  return async function runResearchJob(payload, job) {
    const runId = payload.research_id;
    const log =
      job.logger ?? logger.child({ research_id: runId, job_id: job.id, request_id: payload.request_id ?? null });
    const run = await findRunById(db, runId);
    if (!run || run.is_hidden || !isRunning(run.state)) {
      log.info('research run needs no work', { state: run?.state ?? null, hidden: run?.is_hidden ?? null });
      return 'done';
    }
    let lock: Awaited<ReturnType<typeof tryLockRun>> = null;
    if (options.lockDb) {
      lock = await tryLockRun(options.lockDb, runId);
      if (!lock) return 'busy';
    }
    try {
      if (!lock) return await execute(runId, log, job, undefined);
      // A lost run lock stops the run as a shutdown does: another worker may hold the run by now.
      const work = execute(runId, log, { ...job, signal: AbortSignal.any([job.signal, lock.lost]) }, lock.lost);
      // The lock usually goes with the whole connection to the database: a query of this pick-up may wait on
      // it for minutes (TCP keepalive). The pick-up ends at once; the run's conditional writes keep whatever
      // it still does when that query returns from counting (it stops at its next check).
      work.catch(() => undefined);
      const lost = lock.lost;
      const stopped = new Promise<never>((_, reject) => {
        const stop = () => {
          log.warn('run lock lost with its database connection; handing the research run back', {
            error: lost.reason,
          });
          reject(lockLostError(lost));
        };
        if (lost.aborted) stop();
        else lost.addEventListener('abort', stop, { once: true });
      });
      return await Promise.race([work, stopped]);
    } finally {
      await lock?.release();
    }
  };
}
