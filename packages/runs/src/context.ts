import type { PasswordHasher } from '@research/auth';
import type { AppConfig } from '@research/core';
import type { Database } from '@research/database';
import type { Logger, Metrics } from '@research/observability';
import type { ResearchQueue } from '@research/queue';
import type { ResearchTools } from './research-tools';

/**
 * The services every use case runs over, built once by the process's composition root (runtime's
 * buildAppContext; test support builds the same from real parts). A use case takes the part it needs.
 */
export interface RunsContext {
  readonly config: AppConfig;
  readonly db: Database;
  /** `embedded` (PGlite) or `postgres`: readiness reports it; both are persistent storage. */
  readonly databaseKind: 'postgres' | 'embedded';
  readonly queue: ResearchQueue;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly passwords: PasswordHasher;
  /** Called after a run is committed and could not be enqueued: the reconciler will pick it up. */
  readonly onEnqueueFailed?: (researchId: string, error: unknown) => void;
  /**
   * Search providers, crawler and LLM clients of the mounted route groups and of a step a use case runs
   * (the process's own, closed by the runtime at stop).
   */
  readonly tools: ResearchTools;
}
