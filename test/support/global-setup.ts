import { execSync } from 'node:child_process';
import pg from 'pg';
import { Redis } from 'ioredis';
import { TEST_DATABASE_URL, TEST_REDIS_URL } from './env';

async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function redisReachable(url: string): Promise<boolean> {
  const redis = new Redis(url, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 3000,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

function dockerAvailable(): boolean {
  try {
    execSync('docker info', { stdio: 'ignore', timeout: 5000 });
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes sure Postgres and Redis are there before any test file runs: the local services by default,
 * containers when they are unreachable and a Docker engine exists, otherwise a message saying what to start.
 */
export default async function globalSetup(): Promise<void> {
  const [pgUp, redisUp] = await Promise.all([postgresReachable(TEST_DATABASE_URL), redisReachable(TEST_REDIS_URL)]);
  if (pgUp && redisUp) return;
  if (dockerAvailable()) {
    const { GenericContainer } = await import('testcontainers');
    if (!pgUp) {
      const container = await new GenericContainer('postgres:15-alpine')
        .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
        .withExposedPorts(5432)
        .start();
      process.env.TEST_DATABASE_URL = `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
    }
    if (!redisUp) {
      const container = await new GenericContainer('redis:7-alpine').withExposedPorts(6379).start();
      process.env.TEST_REDIS_URL = `redis://${container.getHost()}:${container.getMappedPort(6379)}`;
    }
    return;
  }
  const missing = [
    !pgUp &&
      `Postgres at ${TEST_DATABASE_URL} (set TEST_DATABASE_URL, or start it: pg_ctlcluster --skip-systemctl-redirect 15 main start)`,
    !redisUp &&
      `Redis at ${TEST_REDIS_URL} (set TEST_REDIS_URL, or start it: redis-server --daemonize yes --bind 127.0.0.1 --port 6379)`,
  ].filter(Boolean);
  throw new Error(
    `The tests need real services, and these are unreachable with no Docker engine to start them:\n  - ${missing.join('\n  - ')}`,
  );
}
