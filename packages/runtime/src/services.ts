import crypto from 'node:crypto';
import os from 'node:os';
import { Redis } from 'ioredis';
import type { AppConfig, LlmClient } from '@research/core';
import { PasswordHasher } from '@research/auth';
import { createCrawler, type Crawler } from '@research/crawler';
import { connectPostgres, countRunningRuns, migrateToLatest, openEmbedded, type Database } from '@research/database';
import { createLlmClients } from '@research/llm';
import {
  createLogger,
  createMetrics,
  startFleetMetrics,
  type FleetMetrics,
  type Logger,
  type Metrics,
} from '@research/observability';
import { acquireEmbeddedLock, type EmbeddedLock } from './embedded-lock';

export type ProcessRole = 'api' | 'worker' | 'all' | 'migrate' | 'cli';

/** The long-lived parts every process opens once at start and closes once at stop. */
export interface Services {
  readonly config: AppConfig;
  readonly role: ProcessRole;
  /** Unique per process: names this process's metric snapshot in Redis. */
  readonly instanceId: string;
  readonly logger: Logger;
  readonly db: Database;
  readonly databaseKind: 'postgres' | 'embedded';
  readonly metrics: Metrics;
  readonly passwords: PasswordHasher;
  /** A general-purpose Redis connection (metrics fleet), present when REDIS_URL is set. */
  readonly redis: Redis | undefined;
  /**
   * The fleet's metric totals in Redis (REDIS_URL set; API and worker processes): this process adds its
   * counts on a timer and whenever a worker is about to commit a step; /metrics reads the totals.
   */
  readonly fleet: FleetMetrics | undefined;
  /**
   * The process's one crawler, built on first use: the worker's engine and the mounted routes share its
   * extraction threads, robots cache and per-host politeness.
   */
  crawler(): Crawler;
  /**
   * The research runs' LLM client (null without LLM_BASE_URL), built on first use: one per process, so
   * LLM_MAX_CONCURRENCY holds across every run the process works on.
   */
  llm(): LlmClient | null;
  /** The mounted routes' LLM client: the same LLM under LLM_ROUTES_MAX_CONCURRENCY, or null. */
  routesLlm(): LlmClient | null;
  /** The mounted routes' vision model (VISION_MODEL), or null when not configured. */
  visionLlm(): LlmClient | null;
  close(): Promise<void>;
}

/** Opens database (applying migrations), Redis and metrics for one process. */
export async function openServices(
  config: AppConfig,
  role: ProcessRole,
  options: { migrate?: boolean } = {},
): Promise<Services> {
  const instanceId = `${role}-${os.hostname()}-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
  const logger = createLogger(config, { service: 'research', role });
  let lock: EmbeddedLock | undefined;
  let handle;
  if (config.databaseUrl) {
    handle = connectPostgres(config.databaseUrl, { applicationName: `research-${role}` });
  } else {
    // PGlite is single-process: one process owns DATA_DIR at a time (see embedded-lock.ts).
    lock = acquireEmbeddedLock(config.dataDir, role);
    try {
      handle = await openEmbedded(config.dataDir);
    } catch (error) {
      lock.release();
      throw error;
    }
  }
  if (options.migrate !== false) await migrateToLatest(handle.db);
  const db = handle.db;
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false })
    : undefined;
  redis?.on('error', (error) => logger.debug('redis connection error', { error }));
  const metrics = createMetrics({
    activeRuns: role === 'worker' ? undefined : () => countRunningRuns(db),
    defaultMetrics: role !== 'cli' && role !== 'migrate',
  });
  const fleet =
    redis && (role === 'api' || role === 'worker' || role === 'all')
      ? startFleetMetrics({
          redis,
          prefix: config.redisPrefix,
          instanceId,
          metrics,
          intervalMs: config.metricsPublishIntervalMs,
          logger,
        })
      : undefined;
  let crawler: Crawler | undefined;
  // Every LLM client of the process is built here, once: the runs', the routes' and the vision model's.
  const llms = createLlmClients(config, { metrics, logger });
  return {
    config,
    role,
    instanceId,
    logger,
    db,
    databaseKind: handle.kind,
    metrics,
    passwords: new PasswordHasher(config.passwordHashConcurrency),
    redis,
    fleet,
    crawler() {
      crawler ??= createCrawler({ config, logger, metrics, db });
      return crawler;
    },
    llm: llms.runs,
    routesLlm: llms.routes,
    visionLlm: llms.vision,
    async close() {
      // The crawler's page cache writes to the database: it stops first.
      await crawler?.close();
      // The last counts of this process join the fleet's totals before its Redis connection goes.
      await fleet?.stop();
      redis?.disconnect();
      await handle.close();
      lock?.release();
    },
  };
}

/** `npm run migrate`: applies pending migrations; returns the names applied. */
export async function runMigrations(config: AppConfig): Promise<string[]> {
  const services = await openServices(config, 'migrate', { migrate: false });
  try {
    const result = await migrateToLatest(services.db);
    return (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  } finally {
    await services.close();
  }
}
