import { withTimeout } from '@research/core';
import { markRunEnqueued } from '@research/database';
import type { RunsContext } from './context';
import type { RequestScope } from './scope';

/** How long a use case waits for the queue before answering anyway (the reconciler enqueues later). */
export const ENQUEUE_TIMEOUT_MS = 2000;

/**
 * Enqueues the job of a run just committed (created, or approved after review). A queue that is down does not
 * fail the request: the run is in Postgres and the reconciler enqueues it later.
 */
export async function enqueueRun(
  ctx: Pick<RunsContext, 'db' | 'queue' | 'onEnqueueFailed'>,
  scope: RequestScope,
  id: string,
): Promise<void> {
  try {
    await withTimeout(
      ctx.queue.enqueue({ research_id: id, request_id: scope.requestId }),
      ENQUEUE_TIMEOUT_MS,
      'enqueue',
    );
  } catch (error) {
    scope.logger.warn('research run stored but not enqueued; the reconciler will enqueue it', {
      research_id: id,
      error,
    });
    try {
      ctx.onEnqueueFailed?.(id, error);
    } catch (hookError) {
      scope.logger.warn('onEnqueueFailed hook failed', { research_id: id, error: hookError });
    }
    return;
  }
  try {
    await markRunEnqueued(ctx.db, id);
  } catch (error) {
    // Only bookkeeping for the reconciler; the job exists.
    scope.logger.warn('could not mark research run as enqueued', { research_id: id, error });
  }
}
