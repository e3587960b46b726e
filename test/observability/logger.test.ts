import { Writable } from 'node:stream';
import winston from 'winston';
import { createLogger, redactText } from '@research/observability';

function capture(): { logger: winston.Logger; lines: () => string[] } {
  const chunks: string[] = [];
  const logger = createLogger({ logLevel: 'debug', logFormat: 'json' });
  logger.clear();
  logger.add(
    new winston.transports.Stream({
      stream: new Writable({
        write(chunk, _enc, cb) {
          chunks.push(String(chunk));
          cb();
        },
      }),
    }),
  );
  return { logger, lines: () => chunks };
}

describe('logger', () => {
  const key = 'rsk_0123456789abcdef_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ';

  it('redacts secrets by field name and inside text', async () => {
    const { logger, lines } = capture();
    logger.info('request', {
      api_key: key,
      password: 'hunter22',
      nested: { current_password: 'x', authorization: 'Bearer abc.def' },
      note: `sent ${key} with Bearer sk-live-123 to https://user:pw@host/x?api_key=zzz`,
    });
    await new Promise((r) => setImmediate(r));
    const out = lines().join('');
    expect(out).not.toContain(key);
    expect(out).not.toContain('hunter22');
    expect(out).not.toContain('sk-live-123');
    expect(out).not.toContain(':pw@');
    expect(out).not.toContain('zzz');
    expect(out).toContain('[REDACTED]');
    const entry = JSON.parse(out.trim().split('\n')[0]!) as Record<string, unknown>;
    expect(entry.level).toBe('info');
    expect(entry.message).toBe('request');
  });

  it('keeps ordinary fields', () => {
    expect(redactText('research_id=abc job 42')).toBe('research_id=abc job 42');
  });
});
