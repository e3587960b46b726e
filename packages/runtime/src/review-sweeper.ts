import { startPeriodicPass, type PeriodicPass } from '@research/core';
import { expireOverdueReviews, type ResearchServices } from '@research/pipeline';
import type { Services } from './services';

/** The timer of a worker that ends the runs whose plan waited for review longer than PLAN_REVIEW_TIMEOUT_SECONDS. */
export type ReviewSweeper = PeriodicPass<number>;

/**
 * Sweeps overdue plan reviews on the reconciler's interval (RECONCILE_INTERVAL_MS): every worker process does,
 * as every one reconciles; a run is ended once, under its row lock, whichever sweeps first.
 */
export function startReviewSweeper(services: Services, research: ResearchServices): ReviewSweeper {
  const { config, db, logger, metrics } = services;
  const pass = () =>
    expireOverdueReviews({
      db,
      services: research,
      logger,
      metrics,
      timeoutSeconds: config.planReviewTimeoutSeconds,
    }).catch((error: unknown) => {
      // The database down: the runs stay as they are and the next pass tries again.
      logger.warn('plan review sweep failed; retrying on the next tick', { error });
      return 0;
    });
  return startPeriodicPass(pass, { intervalMs: config.reconcileIntervalMs });
}
