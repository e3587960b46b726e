/** How many attempts a request gets and how long the waits between them are. */
export interface BackoffPolicy {
  /** Attempts in all, the first included. */
  readonly attempts: number;
  /** First backoff step; each later step doubles, with jitter. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** The longest wait a server may ask for (Retry-After); a longer one ends the retries at once. */
  readonly maxRetryAfterMs: number;
}

/** What a failed attempt says about another one. */
export interface RetryVerdict {
  readonly retry: boolean;
  /** The wait the server asked for (Retry-After, a rate-limit reset), when it named one. */
  readonly afterMs?: number;
}

export interface RetryOptions {
  readonly policy: BackoffPolicy;
  /** Whether a failure may pass on another attempt (the caller knows its errors). */
  classify(error: unknown): RetryVerdict;
  /** Told before each wait (a log line). */
  onRetry?(retry: { attempt: number; error: unknown; delayMs: number }): void;
  /** Aborting it rejects with its reason, before an attempt or during a wait. */
  readonly signal?: AbortSignal;
}

/**
 * HTTP statuses another attempt may cure: the server timed the request out (408), asked us to slow down
 * (429), or failed or was unavailable (5xx). Every other status says the request itself is wrong.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Milliseconds a Retry-After value asks for (seconds or an HTTP date; a past date is 0), or undefined. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/**
 * The wait before the attempt after `attempt` (numbered from 1), or undefined when there is to be none: the
 * failure is not retryable, the attempts are spent, or the server asked for more than maxRetryAfterMs.
 * A server's wait is honoured with a little jitter on top; otherwise "equal jitter" backoff: half of the
 * exponential step fixed, half random, so parallel clients spread out while every retry still waits.
 */
export function retryDelayMs(policy: BackoffPolicy, attempt: number, verdict: RetryVerdict): number | undefined {
  if (!verdict.retry || attempt >= policy.attempts) return undefined;
  const after = verdict.afterMs;
  if (after !== undefined) {
    return after > policy.maxRetryAfterMs ? undefined : after + Math.round(Math.random() * Math.min(1000, after * 0.1));
  }
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(step / 2 + Math.random() * (step / 2));
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The service's one retry loop (search providers, the LLM): runs `attempt` (numbered from 1) until it
 * succeeds or retryDelayMs says to stop, then rethrows the last failure as it was; the caller turns it
 * into its own error.
 */
export async function withRetries<T>(attempt: (n: number) => Promise<T>, options: RetryOptions): Promise<T> {
  for (let n = 1; ; n++) {
    options.signal?.throwIfAborted();
    try {
      return await attempt(n);
    } catch (error) {
      const delayMs = retryDelayMs(options.policy, n, options.classify(error));
      if (delayMs === undefined) throw error;
      options.onRetry?.({ attempt: n, error, delayMs });
      await sleep(delayMs, options.signal);
    }
  }
}
