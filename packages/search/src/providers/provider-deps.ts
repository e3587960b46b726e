import type { Logger } from '@research/observability';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../provider-http';

/** What every remote provider is built with. */
export interface RemoteProviderDeps {
  logger: Logger;
  /** Timeouts and retries; the defaults suit production, tests shorten them. */
  policy?: Partial<RetryPolicy>;
}

export function retryPolicy(policy: Partial<RetryPolicy> | undefined): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...policy };
}

/** Clamps the requested hit count to what an API accepts. */
export function clampLimit(limit: number, max: number): number {
  return Math.max(1, Math.min(max, Math.floor(Number.isFinite(limit) ? limit : 10)));
}
