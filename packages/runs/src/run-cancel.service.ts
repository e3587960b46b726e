import { AppError, Details, isRunning, isUuid } from '@research/core';
import { mayManage } from '@research/auth';
import { appendRunEvents, findRunById, findRunForEdit, finishRun, type RunRow } from '@research/database';
import { readSnapshot, stepModule, stopReport, writeReport, type OutsideLoop } from '@research/pipeline';
import type { RunsContext } from './context';
import type { RequestScope } from './scope';

// A step that commits while the stop report is written makes it stale: it is written again, this often at most.
const MAX_ATTEMPTS = 3;

/** 409 for a run that has already ended: a stop has nothing to stop. */
function alreadyEnded(id: string, state: string): AppError {
  return new AppError(
    'conflict',
    `Research run ${id} has already ended (state ${state}); only a running run can be cancelled.`,
  );
}

/**
 * The run `id` the caller may manage (stop, review): 404 unknown or hidden, 403 neither its owner nor an
 * administrator (SPEC 4.9 rules 1 and 2).
 */
export async function managedRun(ctx: Pick<RunsContext, 'db'>, scope: RequestScope, id: string): Promise<RunRow> {
  const run = isUuid(id) ? await findRunById(ctx.db, id) : undefined;
  if (!run || run.is_hidden) throw new AppError('not_found', Details.runNotFound(id));
  const access = await findRunForEdit(ctx.db, id);
  if (!access || !mayManage(access.manager_user_id, scope.actor)) throw new AppError('forbidden', Details.notOwner);
  return run;
}

/** The live run `id` the caller may stop: 404 unknown or hidden, 403 not the owner, 409 already ended. */
async function stoppableRun(ctx: Pick<RunsContext, 'db'>, scope: RequestScope, id: string) {
  const run = await managedRun(ctx, scope, id);
  if (!isRunning(run.state)) throw alreadyEnded(id, run.state);
  return run;
}

/**
 * POST /v1/research/{id}/cancel: ends a running run as `cancelled` at once, keeping what it committed (sources,
 * claims, evidence) and storing a report built from them whose uncertainties say the run was stopped. The
 * worker on the run sees the end at its next poll and aborts the step it is in (its abort signal reaches the
 * LLM call or the fetch in flight); that step's unfinished work is discarded. Access as DELETE's (SPEC 4.9
 * rules 1 and 2); a deletion-protection password is not asked: a stop deletes nothing. The stop report is
 * written by the pipeline's synthesize step without an LLM; `signal` ends that work when the caller leaves.
 */
export async function cancelRun(
  ctx: Pick<RunsContext, 'db' | 'metrics' | 'tools'>,
  scope: RequestScope,
  id: string,
  signal: AbortSignal,
): Promise<{ research_id: string }> {
  const outside: OutsideLoop = {
    services: ctx.tools.researchServices(),
    logger: scope.logger,
    metrics: ctx.metrics,
    signal,
  };
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const run = await stoppableRun(ctx, scope, id);
    // The stop report is the synthesize step's: it reads what that step declares.
    const snapshot = await readSnapshot(ctx.db, run, stepModule('synthesize').reads);
    const stop = await stopReport(run, snapshot, outside);
    const stopped = await ctx.db.transaction().execute(async (trx) => {
      // The run's row lock: a step's commit waits for this one, or committed before it (then redo).
      const locked = await findRunForEdit(trx, id, { lock: true });
      if (!locked || locked.is_hidden) throw new AppError('not_found', Details.runNotFound(id));
      if (!isRunning(locked.state)) throw alreadyEnded(id, locked.state);
      if (locked.checkpoint_seq !== run.checkpoint_seq) return false;
      await writeReport(trx, id, stop.record);
      await appendRunEvents(trx, id, stop.events);
      await finishRun(trx, id, { state: 'cancelled' });
      return true;
    });
    if (stopped) {
      scope.logger.info('research run cancelled by its client', { research_id: id });
      return { research_id: id };
    }
  }
  throw new AppError('conflict', `Research run ${id} kept changing; try again.`);
}
