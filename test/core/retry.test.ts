import { isRetryableStatus, parseRetryAfter, retryDelayMs, withRetries, type BackoffPolicy } from '@research/core';

const policy: BackoffPolicy = { attempts: 3, baseDelayMs: 10, maxDelayMs: 40, maxRetryAfterMs: 200 };

class Transient extends Error {
  constructor(readonly afterMs?: number) {
    super('transient');
  }
}
const classify = (error: unknown) =>
  error instanceof Transient ? { retry: true, afterMs: error.afterMs } : { retry: false };

describe('withRetries', () => {
  it('tries again after a retryable failure and returns the first success', async () => {
    const waits: number[] = [];
    const result = await withRetries(
      async (n) => {
        if (n < 3) throw new Transient();
        return `ok on ${n}`;
      },
      { policy, classify, onRetry: ({ delayMs }) => waits.push(delayMs) },
    );
    expect(result).toBe('ok on 3');
    // Equal jitter: half of each doubling step is always waited.
    expect(waits[0]).toBeGreaterThanOrEqual(5);
    expect(waits[0]).toBeLessThanOrEqual(10);
    expect(waits[1]).toBeGreaterThanOrEqual(10);
    expect(waits[1]).toBeLessThanOrEqual(20);
  });

  it('rethrows the last failure once the attempts are spent, and a non-retryable one at once', async () => {
    let calls = 0;
    const last = new Transient();
    await expect(
      withRetries(
        async () => {
          calls++;
          throw calls === 3 ? last : new Transient();
        },
        { policy, classify },
      ),
    ).rejects.toBe(last);
    expect(calls).toBe(3);

    calls = 0;
    const fatal = new Error('bad request');
    await expect(
      withRetries(
        async () => {
          calls++;
          throw fatal;
        },
        { policy, classify },
      ),
    ).rejects.toBe(fatal);
    expect(calls).toBe(1);
  });

  it('waits what the server asked for, and gives up at once when it asks for more than maxRetryAfterMs', async () => {
    expect(retryDelayMs(policy, 1, { retry: true, afterMs: 100 })).toBeGreaterThanOrEqual(100);
    expect(retryDelayMs(policy, 1, { retry: true, afterMs: 100 })).toBeLessThanOrEqual(110);
    expect(retryDelayMs(policy, 1, { retry: true, afterMs: 201 })).toBeUndefined();
    expect(retryDelayMs(policy, 3, { retry: true })).toBeUndefined();
    let calls = 0;
    await expect(
      withRetries(
        async () => {
          calls++;
          throw new Transient(60_000);
        },
        { policy, classify },
      ),
    ).rejects.toBeInstanceOf(Transient);
    expect(calls).toBe(1);
  });

  it('rejects with the abort reason during a wait', async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const pending = withRetries(
      async () => {
        throw new Transient(150);
      },
      { policy, classify, signal: controller.signal, onRetry: () => setTimeout(() => controller.abort(reason), 10) },
    );
    await expect(pending).rejects.toBe(reason);
  });
});

describe('isRetryableStatus and parseRetryAfter', () => {
  it('retries timeouts, rate limits and server errors only', () => {
    expect([408, 429, 500, 502, 503, 504].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 404, 422, 432].some(isRetryableStatus)).toBe(false);
  });

  it('reads seconds or an HTTP date', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter(' 1.5 ', now)).toBe(1500);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:05 GMT', now)).toBe(5000);
    expect(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
