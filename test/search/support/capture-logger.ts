import { Writable } from 'node:stream';
import winston from 'winston';
import { createLogger, type Logger } from '@research/observability';

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
