import type { Redis } from 'ioredis';
import { RLWrapperTimeouts, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError, type AppConfig } from '@research/core';

/** How many requests of one API key one quota allows, per window. */
export interface KeyQuota {
  /**
   * Counts one request of the key in every window of the quota; when one is spent, throws the 429 naming
   * the limit, with the seconds until that window starts afresh as its `Retry-After`.
   */
  take(keyId: string): Promise<void>;
}

export interface KeyQuotas {
  /** `POST /v1/research`: RUNS_PER_KEY_PER_MINUTE and RUNS_PER_KEY_PER_HOUR. */
  readonly runs: KeyQuota;
  /** `POST /search`: SEARCHES_PER_KEY_PER_MINUTE. */
  readonly searches: KeyQuota;
}

interface Window {
  readonly per: 'minute' | 'hour';
  readonly points: number;
  readonly limiter: { consume(key: string): Promise<RateLimiterRes> };
}

const SECONDS = { minute: 60, hour: 3600 } as const;
/** Longest wait for Redis on a request's path before the process counts in memory instead. */
export const QUOTA_REDIS_TIMEOUT_MS = 500;

/**
 * The per-key quotas of the API. With Redis (REDIS_URL) they are counted there, so every API process
 * shares one count per key; while Redis is down or does not answer within QUOTA_REDIS_TIMEOUT_MS, each
 * process counts in memory (rate-limiter-flexible's insurance limiter) rather than refusing, stalling or
 * letting everything through. Without Redis (embedded mode, one process) they are counted in memory.
 * Fixed windows: a key's window starts with its first counted request.
 */
export function createKeyQuotas(config: AppConfig, redis: Redis | undefined): KeyQuotas {
  const window = (name: string, per: Window['per'], points: number): Window | undefined => {
    if (points === 0) return undefined;
    const options = { points, duration: SECONDS[per] };
    const memory = new RateLimiterMemory(options);
    const limiter = redis
      ? new RLWrapperTimeouts({
          limiter: new RateLimiterRedis({
            ...options,
            storeClient: redis,
            keyPrefix: `${config.redisPrefix}:quota:${name}:${per}`,
            // A Redis that is down answers from memory at once instead of waiting for a reconnect.
            rejectIfRedisNotReady: true,
            insuranceLimiter: memory,
          }),
          timeoutMs: QUOTA_REDIS_TIMEOUT_MS,
          insuranceLimiter: memory,
        })
      : memory;
    return { per, points, limiter };
  };
  const { runsPerMinute, runsPerHour, searchesPerMinute } = config.quotas;
  return {
    runs: keyQuota('Too many research runs created with this API key', [
      window('runs', 'minute', runsPerMinute),
      window('runs', 'hour', runsPerHour),
    ]),
    searches: keyQuota('Too many searches with this API key', [window('searches', 'minute', searchesPerMinute)]),
  };
}

function keyQuota(what: string, windows: Array<Window | undefined>): KeyQuota {
  const active = windows.filter((w): w is Window => w !== undefined);
  return {
    async take(keyId) {
      // In order, shortest window first: a request refused by one window is not counted in the longer ones,
      // so a burst against the minute limit does not eat the hour's quota.
      for (const { per, points, limiter } of active) {
        try {
          await limiter.consume(keyId);
        } catch (error) {
          if (!(error instanceof RateLimiterRes)) throw error;
          const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
          throw new AppError('too_many_requests', `${what}: at most ${points} per ${per}. Retry in ${seconds} s.`, {
            retryAfterSeconds: seconds,
          });
        }
      }
    },
  };
}
