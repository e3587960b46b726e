import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { TEST_REDIS_URL } from './env';

export { TEST_REDIS_URL };

/** A Redis key prefix of its own for one test (queues and metrics never collide across files). */
export function uniqueRedisPrefix(label = 't'): string {
  return `rs-test-${label}-${crypto.randomBytes(4).toString('hex')}`;
}

export function connectTestRedis(): Redis {
  return new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
}

/** Deletes every key under the prefix. */
export async function clearRedisPrefix(prefix: string): Promise<void> {
  const redis = connectTestRedis();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
