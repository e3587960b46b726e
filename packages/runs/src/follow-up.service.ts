import { AppError, isUuid, isRunning, validationError } from '@research/core';
import { findVisibleRun, lockVisibleRunForShare, type Db } from '@research/database';
import { writeInheritedEvidence } from '@research/pipeline';

// A follow-up question starts from a finished run (its parent): the parent's sources, claims and evidence are
// copied into the follow-up when it is created, in the transaction that creates it, so the follow-up cites them
// with their content hashes, never fetches their pages again, and keeps them when the parent is deleted or purged.
// A parent is any run the caller may read (the read routes' rule: any visible run).

function unknownParent(id: string): AppError {
  return validationError('parent_id', `research run ${id} not found`);
}

/**
 * Why the run `parent` cannot be a parent, or nothing: a failed run never finished (422: the same request will
 * never succeed), a running one has not finished yet (409: it will once the run ends). A completed run and a
 * stopped one (cancelled: it holds what it found and its report) can.
 */
function refuseUnfinished(parent: { id: string; state: string }): void {
  if (isRunning(parent.state)) {
    throw new AppError(
      'conflict',
      `Research run ${parent.id} has not finished (state ${parent.state}): ask a follow-up once it has completed.`,
    );
  }
  if (parent.state === 'failed') {
    throw validationError(
      'parent_id',
      `research run ${parent.id} failed; a follow-up starts from a completed or stopped run`,
    );
  }
}

/** Checks `parentId` before anything is stored: 422 for a malformed, unknown or hidden id and a failed run, 409 for a running one. */
export async function checkFollowUpParent(db: Db, parentId: string): Promise<void> {
  if (!isUuid(parentId)) throw unknownParent(parentId);
  const parent = await findVisibleRun(db, parentId);
  if (!parent) throw unknownParent(parentId);
  refuseUnfinished(parent);
}

/**
 * In the transaction that creates a follow-up: locks its parent against a delete, purge or new step until the
 * commit, checks it again, and returns how many sources it holds (the follow-up's max_sources is its depth's plus
 * these: the inherited sources take none of its own room).
 */
export async function lockFollowUpParent(trx: Db, parentId: string): Promise<{ sourceCount: number }> {
  const parent = await lockVisibleRunForShare(trx, parentId);
  if (!parent) throw unknownParent(parentId);
  refuseUnfinished(parent);
  return { sourceCount: parent.source_count };
}

/** Copies the parent's evidence into the follow-up `runId` (stored in the same transaction, after the run). */
export function seedFollowUp(trx: Db, parentId: string, runId: string): Promise<void> {
  return writeInheritedEvidence(trx, parentId, runId);
}
