import type { Redis } from 'ioredis';
import type { Logger } from './logger';
import { snapshotFleetMetrics, type Metrics, type MetricSnapshot } from './metrics';

/** Key under which one process's metric snapshot lives; it expires when the process stops publishing. */
function snapshotKey(prefix: string, instanceId: string): string {
  return `${prefix}:metrics:instance:${instanceId}`;
}

export interface FleetPublisher {
  /** Publishes once now (also done on every tick). */
  publish(): Promise<void>;
  /** Stops the timer and removes this process's snapshot so the API stops counting it twice. */
  stop(options?: { keepSnapshot?: boolean }): Promise<void>;
}

/**
 * Publishes this process's summable metrics to Redis every `intervalMs`, with a time-to-live of
 * three intervals, so the API's /metrics can add up every live worker.
 */
export function startFleetPublisher(params: {
  redis: Redis;
  prefix: string;
  instanceId: string;
  metrics: Metrics;
  intervalMs: number;
  logger: Logger;
}): FleetPublisher {
  const { redis, prefix, instanceId, metrics, intervalMs, logger } = params;
  const key = snapshotKey(prefix, instanceId);
  const ttlMs = Math.max(intervalMs * 3, 1000);
  const publish = async () => {
    try {
      const snapshot = await snapshotFleetMetrics(metrics);
      await redis.set(key, JSON.stringify(snapshot), 'PX', ttlMs);
    } catch (error) {
      logger.debug('metrics publish failed', { error });
    }
  };
  const timer = setInterval(() => void publish(), intervalMs);
  timer.unref();
  void publish();
  return {
    publish,
    async stop(options) {
      clearInterval(timer);
      // A last publish keeps the final counts visible until the key expires; tests may remove it.
      if (options?.keepSnapshot === false) {
        await redis.del(key).catch(() => undefined);
      } else {
        await publish();
      }
    },
  };
}

/** Reads every live process's snapshot except `exceptInstanceId` (the reader's own). */
export async function readFleetSnapshots(
  redis: Redis,
  prefix: string,
  exceptInstanceId?: string,
): Promise<MetricSnapshot[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', `${prefix}:metrics:instance:*`, 'COUNT', 200);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  const own = exceptInstanceId ? snapshotKey(prefix, exceptInstanceId) : undefined;
  const wanted = keys.filter((k) => k !== own);
  if (wanted.length === 0) return [];
  const values = await redis.mget(...wanted);
  const snapshots: MetricSnapshot[] = [];
  for (const value of values) {
    if (!value) continue;
    try {
      snapshots.push(JSON.parse(value) as MetricSnapshot);
    } catch {
      // A torn or foreign value is skipped, never fatal to a scrape.
    }
  }
  return snapshots;
}
