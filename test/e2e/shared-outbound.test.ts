import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeLlm, type FakeLlm, type FakeLlmRequest } from '../fakes/fake-llm';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { freePort, killAllProcesses, spawnNodeProcess, waitForLogLine } from '../support/processes';
import { waitFor } from '../support/wait';
import { STANDALONE_MAIN, client } from './support';

const RUN_QUESTION = 'How does photosynthesis convert light energy in plants?';
const FLOOD_QUESTION = 'What limits the rate of photosynthesis?';
const FLOOD = 16;

/** The most requests of `requests` that were in flight at the fake at one moment. */
function peakInFlight(requests: FakeLlmRequest[]): number {
  const edges = requests.flatMap((r) => [
    { at: r.receivedAt, step: 1 },
    { at: r.answeredAt || Infinity, step: -1 },
  ]);
  // An answer and a new request in the same millisecond: the answer first (the slot was handed over).
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let now = 0;
  let peak = 0;
  for (const edge of edges) peak = Math.max(peak, (now += edge.step));
  return peak;
}

// `npm start` runs research and serves the mounted routes in one process. The runs' LLM calls are limited
// by LLM_MAX_CONCURRENCY, the routes' by LLM_ROUTES_MAX_CONCURRENCY: a flood of planner requests waits
// behind itself and never in front of a run's calls.
describe('one process, separate LLM concurrency for runs and routes', () => {
  let dir: string;
  let wiki: FakeWiki;
  let llm: FakeLlm;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-shared-'));
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
    // Slow answers keep each call in flight long enough for the others to pile up behind it.
    llm = await startFakeLlm({ latencyMs: 300 });
  });
  afterAll(async () => {
    await killAllProcesses();
    await Promise.all([wiki.close(), llm.close()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps each limit, and a flood of route calls does not delay the run’s LLM calls', async () => {
    const port = await freePort();
    const service = spawnNodeProcess('service', STANDALONE_MAIN, {
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      WIKIPEDIA_API_URL: wiki.apiUrl,
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'fake-model',
      LLM_MAX_CONCURRENCY: '1',
      LLM_ROUTES_MAX_CONCURRENCY: '1',
      CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    await waitForLogLine(service, 'service listening', 60_000);
    const key = fs.readFileSync(path.join(dir, 'initial-admin-key'), 'utf8').trim();
    const api = client(`http://127.0.0.1:${port}`, key);

    const created = await api<{ research_id: string }>('POST', '/v1/research', {
      query: RUN_QUESTION,
      depth: 'quick',
      language: 'en',
    });
    expect(created.status).toBe(200);
    // Once the run reads its sources with the model (calls in quick succession), the routes ask for plans
    // of their own: 16 × 300 ms of work for one route slot.
    await waitFor(
      'the run to extract claims with the LLM',
      async () => llm.requests.some((r) => r.schemaName === 'claims') || undefined,
      45_000,
      20,
    );
    const floodStart = Date.now();
    const planned = await Promise.all(
      Array.from({ length: FLOOD }, () =>
        api<{ engine: string }>('POST', '/research/planner', { query: FLOOD_QUESTION }),
      ),
    );
    for (const res of planned) expect(res).toMatchObject({ status: 200, body: { engine: 'llm' } });

    const id = created.body.research_id;
    await waitFor(
      'the run to complete',
      async () => {
        const r = await api<{ state: string }>('GET', `/v1/research/${id}/status`);
        if (r.body.state === 'failed') throw new Error(JSON.stringify(r.body));
        return r.body.state === 'completed' || undefined;
      },
      60_000,
      200,
    );

    const isRoute = (r: FakeLlmRequest) => r.messages.some((m) => m.content.includes(FLOOD_QUESTION));
    const routeCalls = llm.requests.filter(isRoute);
    const runCalls = llm.requests.filter((r) => !isRoute(r));
    expect(routeCalls).toHaveLength(FLOOD);
    expect(runCalls.length).toBeGreaterThan(2);
    // Each part within its own limit, so the model never saw more than their sum.
    expect(peakInFlight(routeCalls)).toBe(1);
    expect(peakInFlight(runCalls)).toBe(1);
    expect(llm.maxInFlight).toBe(2);

    // The run made its last call (the report, after all its claims) while most of the flood was still
    // waiting for the routes' slot. With one shared limit it queued behind every route call (received
    // after all 16 of them: 0 waiting).
    const lastRunCall = runCalls.at(-1)!;
    expect(lastRunCall.schemaName).toBe('report');
    expect(lastRunCall.receivedAt).toBeGreaterThan(floodStart);
    const stillWaiting = routeCalls.filter((r) => r.answeredAt === 0 || r.answeredAt > lastRunCall.receivedAt);
    expect(stillWaiting.length).toBeGreaterThanOrEqual(FLOOD / 2);
  });
});
