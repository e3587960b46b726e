import type { Redis } from 'ioredis';
import type { AppConfig } from '@research/core';
import type { PasswordHasher } from '@research/auth';
import type { Database } from '@research/database';
import type { Logger, Metrics, MetricSnapshot } from '@research/observability';
import type { ResearchQueue } from '@research/queue';
import type { ResearchTools } from './services/research-tools';
import type { RunEventHub } from './services/run-event-hub';

/** Everything the HTTP app needs, built by the runtime (real parts in production and in tests). */
export interface AppContext {
  readonly config: AppConfig;
  readonly db: Database;
  /** `embedded` (PGlite) or `postgres`: readiness reports it; both are persistent storage. */
  readonly databaseKind: 'postgres' | 'embedded';
  readonly queue: ResearchQueue;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly passwords: PasswordHasher;
  /**
   * The fleet's metric totals (every API and worker process, this one included) for /metrics; null when
   * this process is the whole service (no Redis). Throws when they cannot be read.
   */
  readonly fleetMetrics: () => Promise<MetricSnapshot | null>;
  /**
   * The process's general Redis connection (REDIS_URL): per-key quotas are counted there, so they hold
   * across every API process. Without it they are counted in this process's memory.
   */
  readonly redis?: Redis;
  /** Called after a run is committed and could not be enqueued: the reconciler will pick it up. */
  readonly onEnqueueFailed?: (researchId: string, error: unknown) => void;
  /**
   * Search providers, crawler and LLM clients of the mounted route groups. The runtime passes them, with its
   * Services' LLM clients (and closes them at stop); without them createApp builds them lazily from config
   * on first use.
   */
  readonly tools?: ResearchTools;
  /**
   * The process's run event streams. The runtime passes one and closes it at shutdown (ending every open
   * stream, so the server can drain); without it createApp makes its own.
   */
  readonly runEvents?: RunEventHub;
}
