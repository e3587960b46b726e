import type { Redis } from 'ioredis';
import type { MetricSnapshot } from '@research/observability';
import type { RunsContext } from '@research/runs';
import type { RunEventHub } from './run-event-hub';

/**
 * Everything the HTTP app needs, built by the runtime (real parts in production and in tests): the
 * services its use cases run over, and what only HTTP serves (the fleet's metrics, quotas, event streams).
 */
export interface AppContext extends RunsContext {
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
  /**
   * The process's run event streams. The runtime passes one and closes it at shutdown (ending every open
   * stream, so the server can drain); without it createApp makes its own.
   */
  readonly runEvents?: RunEventHub;
}
