import { createMetrics, createSilentLogger, readFleetSnapshots, renderFleetMetrics } from '@research/observability';
import { createBullResearchQueue, type ResearchQueue } from '@research/queue';
import type { Redis } from 'ioredis';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { TEST_REDIS_URL, clearRedisPrefix, connectTestRedis, uniqueRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { promValue, snapshotValue } from './metrics-reading';
import {
  insertTestRun,
  killAllWorkers,
  spawnWorker,
  waitForState,
  waitForWorkerReady,
  workerEnv,
  type WorkerProcess,
} from './worker-fixtures';
import { SPEC_METRIC_NAMES } from '../support/metric-names';

describe('metrics across worker processes', () => {
  let t: TestDatabase;
  let wiki: FakeWiki;
  let prefix: string;
  let redis: Redis;
  let producer: ResearchQueue;
  const workers: WorkerProcess[] = [];

  beforeAll(async () => {
    t = await createTestDatabase('fleetmetrics');
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS, pageLatencyMs: 300 });
    prefix = uniqueRedisPrefix('fleet');
    redis = connectTestRedis();
    producer = createBullResearchQueue({ redisUrl: TEST_REDIS_URL, prefix, logger: createSilentLogger() });
    const env = workerEnv({
      databaseUrl: t.url,
      redisUrl: TEST_REDIS_URL,
      prefix,
      wikiApiUrl: wiki.apiUrl,
      concurrency: 1,
    });
    workers.push(spawnWorker('worker-a', env), spawnWorker('worker-b', env));
    await Promise.all(workers.map((w) => waitForWorkerReady(w)));
  });

  afterAll(async () => {
    await killAllWorkers();
    await producer?.close();
    redis?.disconnect();
    if (prefix) await clearRedisPrefix(prefix);
    await wiki?.close();
    await t?.drop();
  });

  it('shows the completed runs of every worker in one scrape, as the API aggregates them', async () => {
    const runs = await Promise.all([1, 2, 3, 4].map(() => insertTestRun(t.db)));
    for (const run of runs) await producer.enqueue({ research_id: run.id });
    for (const run of runs) await waitForState(t.db, run.id, ['completed'], 30_000);

    // Each worker publishes its own registry; both did part of the work.
    const snapshots = await waitFor(
      'both workers to publish their final counts',
      async () => {
        const found = await readFleetSnapshots(redis, prefix);
        const total = found.reduce((sum, s) => sum + snapshotValue(s, 'research_completed_total'), 0);
        return found.length === 2 && total === runs.length ? found : undefined;
      },
      10_000,
      100,
    );
    for (const snapshot of snapshots)
      expect(snapshotValue(snapshot, 'research_completed_total')).toBeGreaterThanOrEqual(1);
    for (const worker of workers) expect(worker.lines.some((l) => l.message === 'research run completed')).toBe(true);

    // The API's /metrics: its own registry (nothing done in it) plus the fleet's snapshots.
    const text = await renderFleetMetrics(
      createMetrics({ defaultMetrics: false, activeRuns: async () => 0 }),
      snapshots,
    );
    expect(promValue(text, 'research_completed_total')).toBe(runs.length);
    expect(promValue(text, 'research_failed_total')).toBe(0);
    expect(promValue(text, 'research_duration_seconds_count')).toBe(runs.length);
    expect(promValue(text, 'search_queries_total')).toBeGreaterThanOrEqual(runs.length);
    expect(promValue(text, 'sources_fetched_total')).toBeGreaterThanOrEqual(runs.length);
    expect(promValue(text, 'claims_extracted_total')).toBeGreaterThan(0);
    expect(promValue(text, 'active_research_runs')).toBe(0);
    for (const name of SPEC_METRIC_NAMES) {
      expect(text).toContain(`# TYPE ${name} `);
    }
  });
});
