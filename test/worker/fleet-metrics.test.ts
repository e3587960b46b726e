import fs from 'node:fs';
import { createApiKey } from '../e2e/fleet-support';
import { API_MAIN, client } from '../e2e/support';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { createTestDatabase, type TestDatabase } from '../support/database';
import { freePort, killAllProcesses, spawnNodeProcess, waitForLogLine, type NodeProcess } from '../support/processes';
import { TEST_REDIS_URL, clearRedisPrefix, uniqueRedisPrefix } from '../support/redis';
import { waitFor } from '../support/wait';
import { SPEC_METRIC_NAMES } from '../support/metric-names';
import { promValue } from './metrics-reading';
import { recordCounts, spawnWorker, waitForWorkerReady, workerEnv } from './worker-fixtures';

// Two API processes and two workers. Workers publish on a timer too slow to matter here (10 min): what a
// scrape shows right after a run completes was published before the run's completion was committed.
describe('metrics across API and worker processes', () => {
  let t: TestDatabase;
  let wiki: FakeWiki;
  let prefix: string;
  let env: Record<string, string>;
  let apis: Array<ReturnType<typeof client>>;
  const workers: NodeProcess[] = [];
  const dataDirs: string[] = [];
  /** What the runs completed so far stored, added up. */
  const expected = { completed: 0, sources: 0, claims: 0 };

  beforeAll(async () => {
    t = await createTestDatabase('fleetmetrics');
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS, pageLatencyMs: 20 });
    prefix = uniqueRedisPrefix('fleetmetrics');
    env = {
      ...workerEnv({ databaseUrl: t.url, redisUrl: TEST_REDIS_URL, prefix, wikiApiUrl: wiki.apiUrl, concurrency: 1 }),
      METRICS_PUBLISH_INTERVAL_MS: '600000',
    };
    const started = await Promise.all(
      ['api-a', 'api-b'].map(async (name) => {
        const port = await freePort();
        const dataDir = `/tmp/${prefix}-${name}`;
        dataDirs.push(dataDir);
        const api = spawnNodeProcess(name, API_MAIN, {
          ...env,
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
        });
        await waitForLogLine(api, 'API listening', 30_000);
        return port;
      }),
    );
    workers.push(spawnWorker('worker-a', env), spawnWorker('worker-b', env));
    await Promise.all(workers.map((w) => waitForWorkerReady(w)));
    const key = await createApiKey(t.db, 'metrics-user');
    apis = started.map((port) => client(`http://127.0.0.1:${port}`, key));
  });

  afterAll(async () => {
    await killAllProcesses();
    await wiki?.close();
    if (prefix) await clearRedisPrefix(prefix);
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
    await t?.drop();
  });

  async function scrape(api: ReturnType<typeof client>): Promise<string> {
    const res = await api<string>('GET', '/metrics');
    expect(res.status).toBe(200);
    return res.body;
  }

  function expectExact(text: string): void {
    expect(promValue(text, 'research_completed_total')).toBe(expected.completed);
    expect(promValue(text, 'research_duration_seconds_count')).toBe(expected.completed);
    expect(promValue(text, 'sources_fetched_total')).toBe(expected.sources);
    expect(promValue(text, 'claims_extracted_total')).toBe(expected.claims);
    expect(promValue(text, 'research_failed_total')).toBe(0);
  }

  /** Creates a run on one API, polls it there until completed, and at once scrapes the other API. */
  async function completeAndScrape(create: ReturnType<typeof client>, scrapeFrom: ReturnType<typeof client>) {
    const created = await create<{ research_id: string }>('POST', '/v1/research', {
      query: 'photosynthesis light energy plants',
      depth: 'quick',
      language: 'en',
    });
    expect(created.status).toBe(200);
    const id = created.body.research_id;
    await waitFor(
      `run ${id} to complete`,
      async () => (await create<{ state: string }>('GET', `/v1/research/${id}/status`)).body.state === 'completed',
      30_000,
      25,
    );
    const text = await scrape(scrapeFrom);
    const counts = await recordCounts(t.db, id);
    expected.completed += 1;
    expected.sources += counts.sources;
    expected.claims += counts.claims;
    expect(counts.sources).toBeGreaterThan(0);
    return text;
  }

  it('counts a completed run on every API the moment its state shows completed', async () => {
    for (let i = 0; i < 3; i++) {
      const [create, other] = i % 2 === 0 ? [apis[0]!, apis[1]!] : [apis[1]!, apis[0]!];
      expectExact(await completeAndScrape(create, other));
    }
    // Both workers did part of the work: the totals add up several processes.
    for (const worker of workers) expect(worker.lines.some((l) => l.message === 'research run completed')).toBe(true);
    const text = await scrape(apis[0]!);
    for (const name of SPEC_METRIC_NAMES) expect(text).toContain(`# TYPE ${name} `);
    expect(promValue(text, 'active_research_runs')).toBe(0);
  });

  it('never goes backwards when a worker dies or stops, and counts nothing twice when one starts', async () => {
    const before = await scrape(apis[0]!);
    expectExact(before);
    const [killed, stopped] = workers;
    killed!.child.kill('SIGKILL');
    stopped!.child.kill('SIGTERM');
    expect((await stopped!.exited).code).toBe(0);
    await killed!.exited;
    expectExact(await scrape(apis[1]!));

    workers.push(spawnWorker('worker-c', env));
    await waitForWorkerReady(workers[2]!);
    expectExact(await scrape(apis[0]!));
    expectExact(await completeAndScrape(apis[0]!, apis[1]!));
  });
});
