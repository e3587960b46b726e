import { REVIEW_STATE, isRunning } from '@research/core';
import { findRunProgress, markRunEnqueued, type Database } from '@research/database';
import type { Logger } from '@research/observability';
import type { ResearchQueue } from './research-job';

/**
 * Called by a queue once the job that stopped a run for the review of its plan is gone: when the run was
 * approved while that job was still live, the approval's enqueue found the job and added nothing, so the run
 * is enqueued here. Never throws (the reconciler enqueues the run later when this fails).
 */
export async function requeueIfApproved(
  params: { db: Database; queue: ResearchQueue; logger: Logger },
  researchId: string,
): Promise<boolean> {
  try {
    const run = await findRunProgress(params.db, researchId);
    if (!run || run.is_hidden || !isRunning(run.state) || run.state === REVIEW_STATE) return false;
    await params.queue.enqueue({ research_id: researchId });
    await markRunEnqueued(params.db, researchId);
    params.logger.info('research run approved while its pause was ending; enqueued', { research_id: researchId });
    return true;
  } catch (error) {
    params.logger.warn('could not enqueue an approved research run; the reconciler will', {
      research_id: researchId,
      error,
    });
    return false;
  }
}
