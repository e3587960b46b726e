import { expireOverdueReviews, type ResearchServices } from '@research/pipeline';
import type { Services } from './services';

/** The timer of a worker that ends the runs whose plan waited for review longer than PLAN_REVIEW_TIMEOUT_SECONDS. */
export interface ReviewSweeper {
  /** One pass; never throws. Concurrent calls share the pass in flight. */
  runOnce(): Promise<number>;
  /** Stops the timer and waits for a pass in flight. */
  stop(): Promise<void>;
}

/**
 * Sweeps overdue plan reviews on the reconciler's interval (RECONCILE_INTERVAL_MS): every worker process does,
 * as every one reconciles; a run is ended once, under its row lock, whichever sweeps first.
 */
export function startReviewSweeper(services: Services, research: ResearchServices): ReviewSweeper {
  const { config, db, logger, metrics } = services;
  let inFlight: Promise<number> | undefined;
  let stopped = false;
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
  const runOnce = () => {
    inFlight ??= pass().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };
  const timer = setInterval(() => {
    if (!stopped) void runOnce();
  }, config.reconcileIntervalMs);
  timer.unref();
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await inFlight;
    },
  };
}
