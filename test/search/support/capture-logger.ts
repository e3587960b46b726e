import { Writable } from 'node:stream';
import winston from 'winston';
import { createLogger, type Logger } from '@research/observability';
import { fakeTimeoutsOnly } from '../../support/fake-timers';

/** The service's real logger (same format and redaction), writing its JSON lines into `lines`. */
export function captureLogger(): { logger: Logger; lines: string[]; text(): string } {
  const lines: string[] = [];
  const logger = createLogger({ logLevel: 'debug', logFormat: 'json' });
  logger.clear();
  logger.add(
    new winston.transports.Stream({
      stream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString('utf8').trim());
          done();
        },
      }),
    }),
  );
  return { logger, lines, text: () => lines.join('\n') };
}

/** A short retry policy so tests do not wait for production backoffs. */
export const FAST_POLICY = { timeoutMs: 1_000, retries: 2, baseDelayMs: 20, maxDelayMs: 100, maxRetryAfterMs: 3_000 };

/**
 * Runs `search` on Jest's fake timeouts (the loopback HTTP stays real) through one retry: waits for the provider's "retrying" line, then ticks the clock
 * by the wait it logged, the wait withRetries sleeps. Resolves with what the search found and that wait.
 */
export async function searchThroughOneRetry<T>(
  lines: readonly string[],
  search: () => Promise<T>,
): Promise<{ result: T; waitedMs: number }> {
  fakeTimeoutsOnly();
  try {
    let settled = false;
    const searching = search().finally(() => (settled = true));
    searching.catch(() => undefined);
    const retrying = () => lines.find((line) => line.includes('retrying'));
    // Real turns of the event loop until the first attempt's answer has been read and the wait scheduled.
    while (!retrying() && !settled) await new Promise((resolve) => setImmediate(resolve));
    if (!retrying()) throw new Error('the search ended without a retry');
    const waitedMs = Number((JSON.parse(retrying()!) as { delay_ms: unknown }).delay_ms);
    await jest.advanceTimersByTimeAsync(waitedMs);
    return { result: await searching, waitedMs };
  } finally {
    jest.useRealTimers();
  }
}
