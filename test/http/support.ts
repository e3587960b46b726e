import crypto from 'node:crypto';
import http from 'node:http';
import { Queue } from 'bullmq';
import type { Express } from 'express';
import { Redis } from 'ioredis';
import winston from 'winston';
import Transport from 'winston-transport';
import { DEPTH_BUDGETS, loadConfig, type Depth } from '@research/core';
import { PasswordHasher, createApiKey } from '@research/auth';
import {
  countRunningRuns,
  findUserByUsername,
  insertClaims,
  insertRetentionRecord,
  insertRun,
  insertSearchResults,
  insertSources,
  refreshRunCounts,
  replaceEvidence,
  setUserAdmin,
  upsertReport,
  type Database,
} from '@research/database';
import { createApp, type AppContext } from '@research/http';
import { createLlmClients } from '@research/llm';
import {
  createMetrics,
  createSilentLogger,
  type Logger,
  type Metrics,
  type MetricSnapshot,
} from '@research/observability';
import { RESEARCH_QUEUE_NAME, createBullResearchQueue, type ResearchQueue } from '@research/queue';
import { createResearchTools } from '@research/runs';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { TEST_REDIS_URL, clearRedisPrefix, uniqueRedisPrefix } from '../support/redis';
import { listenOnLoopback } from '../support/loopback';

export const PASSWORD = 'correct horse battery staple';
export const OTHER_PASSWORD = 'another long password';

/** A caller of the API: its user id and a live key. */
export interface TestUser {
  id: string;
  username: string;
  key: string;
  keyId: string;
}

/** Log lines a test can read (captured after the app's own formatting, as JSON objects). */
export interface LogCapture {
  readonly logger: Logger;
  readonly entries: Record<string, unknown>[];
  text(): string;
}

/** A winston logger that keeps every entry in memory. */
export function createCapturingLogger(): LogCapture {
  const entries: Record<string, unknown>[] = [];
  class MemoryTransport extends Transport {
    override log(info: Record<string, unknown>, next: () => void): void {
      entries.push(JSON.parse(JSON.stringify(info)) as Record<string, unknown>);
      next();
    }
  }
  const logger = winston.createLogger({
    level: 'debug',
    format: winston.format.json(),
    transports: [new MemoryTransport()],
  });
  return { logger, entries, text: () => entries.map((e) => JSON.stringify(e)).join('\n') };
}

export interface TestAppOptions {
  /** Environment for loadConfig (DEBUG, LLM_BASE_URL, …). */
  env?: Record<string, string>;
  /** Redis of the BullMQ producer (default: the test Redis). */
  redisUrl?: string;
  logger?: Logger;
  /** The fleet's metric totals for /metrics (default: none, this app is the whole service). */
  fleetMetrics?: (metrics: Metrics) => Promise<MetricSnapshot | null>;
  /** Reuse another app's database instead of creating one. */
  database?: TestDatabase;
}

export interface TestApp {
  readonly app: Express;
  readonly ctx: AppContext;
  readonly db: Database;
  readonly database: TestDatabase;
  readonly prefix: string;
  readonly queue: ResearchQueue;
  readonly passwords: PasswordHasher;
  readonly enqueueFailures: string[];
  readonly owner: TestUser;
  readonly other: TestUser;
  readonly admin: TestUser;
  /** A job of the research queue, read straight from Redis. */
  findJob(researchId: string): Promise<{ id?: string; data: unknown } | undefined>;
  /** A new user with a key. */
  createUser(username: string, options?: { admin?: boolean; expiresInDays?: number }): Promise<TestUser>;
  close(): Promise<void>;
}

async function makeUser(
  db: Database,
  username: string,
  options: { admin?: boolean; expiresInDays?: number } = {},
): Promise<TestUser> {
  const created = await createApiKey(db, { username, name: 'test', expiresInDays: options.expiresInDays ?? null });
  if (options.admin) await setUserAdmin(db, username, true);
  const user = await findUserByUsername(db, username);
  return { id: user!.id, username, key: created.key, keyId: created.id };
}

/**
 * The app over real parts: a fresh migrated Postgres database, a BullMQ producer on a Redis prefix of its
 * own, real metrics and argon2 hashing; with three callers (owner, other, admin).
 */
export async function buildTestApp(label: string, options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(label));
  const db = database.db;
  const prefix = uniqueRedisPrefix(label);
  const logger = options.logger ?? createSilentLogger();
  const config = loadConfig({ LOG_LEVEL: 'error', PASSWORD_HASH_CONCURRENCY: '4', ...options.env });
  const queue = createBullResearchQueue({
    redisUrl: options.redisUrl ?? TEST_REDIS_URL,
    prefix,
    logger: createSilentLogger(),
  });
  const passwords = new PasswordHasher(config.passwordHashConcurrency);
  const enqueueFailures: string[] = [];
  const metrics = createMetrics({ activeRuns: () => countRunningRuns(db), defaultMetrics: false });
  const fleetMetrics = options.fleetMetrics;
  // The research tools a process's composition root would build from the same config (its LLM clients too).
  const llms = createLlmClients(config, { metrics, logger });
  const tools = createResearchTools({ config, logger, metrics, db, llm: llms.routes, vision: llms.vision });
  const ctx: AppContext = {
    config,
    db,
    databaseKind: 'postgres',
    queue,
    metrics,
    logger,
    passwords,
    fleetMetrics: fleetMetrics ? () => fleetMetrics(metrics) : async () => null,
    onEnqueueFailed: (id) => enqueueFailures.push(id),
    tools,
  };
  const suffix = crypto.randomBytes(3).toString('hex');
  const [owner, other, admin] = await Promise.all([
    makeUser(db, `owner-${suffix}`),
    makeUser(db, `other-${suffix}`),
    makeUser(db, `admin-${suffix}`, { admin: true }),
  ]);
  let reader: { queue: Queue; redis: Redis } | undefined;
  return {
    app: createApp(ctx),
    ctx,
    db,
    database,
    prefix,
    queue,
    passwords,
    enqueueFailures,
    owner,
    other,
    admin,
    async findJob(researchId) {
      if (!reader) {
        const redis = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
        reader = { redis, queue: new Queue(RESEARCH_QUEUE_NAME, { connection: redis, prefix }) };
      }
      const job = await reader.queue.getJob(researchId);
      return job ? { id: job.id, data: job.data } : undefined;
    },
    createUser: (username, userOptions) => makeUser(db, username, userOptions),
    async close() {
      await tools.close();
      await queue.close();
      if (reader) {
        await reader.queue.close();
        reader.redis.disconnect();
      }
      if (!options.redisUrl) await clearRedisPrefix(prefix);
      if (!options.database) await database.drop();
    },
  };
}

export interface RunFactoryOptions {
  owner?: string | null;
  /** Create the retention record (default true when an owner is given). */
  retention?: boolean;
  query?: string;
  depth?: Depth;
  state?: string;
  createdAt?: Date;
  hidden?: boolean;
  /** An argon2 hash stored as the deletion-protection password. */
  passwordHash?: string | null;
  plan?: Record<string, unknown> | null;
  metadata?: Record<string, unknown>;
}

/** Inserts a run the way the service would have stored it (and its retention record unless told otherwise). */
export async function insertTestRun(db: Database, options: RunFactoryOptions = {}): Promise<string> {
  const id = crypto.randomUUID();
  const depth = options.depth ?? 'normal';
  const owner = options.owner ?? null;
  const query = options.query ?? `Frage ${id.slice(0, 8)}`;
  await insertRun(db, {
    id,
    query,
    language: 'de',
    depth,
    budget: JSON.stringify(DEPTH_BUDGETS[depth]),
    state: options.state ?? 'created',
    owner_user_id: owner,
    is_hidden: options.hidden ?? false,
    ...(options.createdAt ? { created_at: options.createdAt } : {}),
    ...(options.plan ? { plan: JSON.stringify(options.plan) } : {}),
    ...(options.metadata ? { metadata: JSON.stringify(options.metadata) } : {}),
  });
  if (options.retention ?? owner !== null) {
    await insertRetentionRecord(db, { research_id: id, owner_user_id: owner, query });
    const updates: Record<string, unknown> = {};
    if (options.passwordHash) updates.password_hash = options.passwordHash;
    if (options.hidden) Object.assign(updates, { is_hidden: true, hidden_at: new Date() });
    if (Object.keys(updates).length) {
      await db.updateTable('retention_records').set(updates).where('research_id', '=', id).execute();
    }
  }
  return id;
}

/** Stores `count` sources with two claims each, one evidence score per claim, a search result per source and (optionally) a report. */
export async function insertRunResults(
  db: Database,
  runId: string,
  options: { sources?: number; report?: Record<string, unknown> | null; reportAt?: Date } = {},
): Promise<{ sourceIds: string[]; claimIds: string[] }> {
  const count = options.sources ?? 2;
  const sourceIds = Array.from({ length: count }, (_, i) => `${runId}-src-${i}`);
  await insertSearchResults(
    db,
    sourceIds.map((_sid, i) => ({
      id: `${runId}-sr-${i}`,
      run_id: runId,
      round: 1,
      position: i,
      query: 'q',
      url: `https://example.org/${i}`,
      title: `Result ${i}`,
      snippet: null,
      published_at: null,
      provider: 'wikipedia',
      rank: i,
    })),
  );
  await insertSources(
    db,
    sourceIds.map((sid, i) => ({
      id: sid,
      run_id: runId,
      round: 1,
      position: i,
      url: `https://example.org/${i}`,
      title: i === 0 ? null : `Source ${i}`,
      domain: 'example.org',
      source_type: i === 0 ? null : 'reference',
      retrieved_at: new Date(Date.UTC(2026, 10, 21, 9, 0, i)),
      content: `SECRET-CONTENT-${i} full extracted text`,
      published_at: null,
      language: 'de',
    })),
  );
  const claimIds: string[] = [];
  const claims = sourceIds.flatMap((sid, i) =>
    [0, 1].map((j) => {
      const id = `${sid}-claim-${j}`;
      claimIds.push(id);
      return {
        id,
        run_id: runId,
        source_id: sid,
        round: 1,
        position: i * 2 + j,
        claim_text: `Claim ${i}.${j}`,
        evidence_span: `span ${i}.${j}`,
        claim_type: j === 0 ? 'fact' : 'opinion',
        confidence: 0.75,
      };
    }),
  );
  await insertClaims(db, claims);
  await replaceEvidence(
    db,
    runId,
    claimIds.map((claimId) => ({
      claim_id: claimId,
      run_id: runId,
      evidence_type: 'secondary_report',
      source_independence_score: 0.5,
      primary_source_proximity: 0.25,
      cross_source_support: 0.1,
      contradiction_level: 0,
      evidence_directness: 0.5,
      date_relevance_score: 0.5,
    })),
  );
  if (options.report)
    await upsertReport(db, runId, options.report, options.reportAt ?? new Date(Date.UTC(2026, 10, 21, 10, 0, 0)));
  await refreshRunCounts(db, runId);
  return { sourceIds, claimIds };
}

/** A loopback server answering like an OpenAI-compatible provider's `GET /models`. */
export async function startFakeLlm(
  status: number,
  options: { models?: string[] } = {},
): Promise<{ url: string; requests: http.IncomingHttpHeaders[]; close(): Promise<void> }> {
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.headers);
    if (req.method === 'GET' && req.url === '/v1/models' && status === 200) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          object: 'list',
          data: (options.models ?? ['fake-model']).map((id) => ({ id, object: 'model', owned_by: 'test' })),
        }),
      );
      return;
    }
    res.writeHead(status === 200 ? 404 : status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: 'failure', type: 'server_error' } }));
  });
  const { port, close } = await listenOnLoopback(server);
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close,
  };
}

/** A loopback port nothing listens on. */
export { freePort as unusedPort } from '../support/processes';

export const NOT_A_UUID = 'not-a-uuid';
export const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';
