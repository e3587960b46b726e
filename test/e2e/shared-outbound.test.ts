import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { freePort, killAllProcesses, spawnNodeProcess, waitForLogLine } from '../support/processes';
import { waitFor } from '../support/wait';
import { STANDALONE_MAIN, client } from './support';

// `npm start` runs research and serves the mounted routes in one process: both use the process's one LLM
// client, so LLM_MAX_CONCURRENCY is the process's limit, not one per part.
describe('one process, one LLM concurrency limit', () => {
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

  it('never has more LLM requests in flight than LLM_MAX_CONCURRENCY, across a running research and the routes', async () => {
    const port = await freePort();
    const service = spawnNodeProcess('service', STANDALONE_MAIN, {
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      WIKIPEDIA_API_URL: wiki.apiUrl,
      LLM_BASE_URL: llm.baseUrl,
      LLM_MODEL: 'fake-model',
      LLM_MAX_CONCURRENCY: '1',
      CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
    });
    await waitForLogLine(service, 'service listening', 60_000);
    const key = fs.readFileSync(path.join(dir, 'initial-admin-key'), 'utf8').trim();
    const api = client(`http://127.0.0.1:${port}`, key);

    const created = await api<{ research_id: string }>('POST', '/v1/research', {
      query: 'How does photosynthesis convert light energy in plants?',
      depth: 'quick',
      language: 'en',
    });
    expect(created.status).toBe(200);
    // Once the run's first LLM call is out, the routes ask for plans of their own.
    await waitFor('the run to call the LLM', async () => llm.requests.length > 0 || undefined, 30_000, 20);
    const planned = await Promise.all(
      [1, 2, 3].map(() =>
        api<{ engine: string }>('POST', '/research/planner', { query: 'What limits the rate of photosynthesis?' }),
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
    // Both parts called the model (the run more than once), and never two calls at once.
    expect(llm.requests.filter((r) => r.schemaName === 'research_plan').length).toBeGreaterThanOrEqual(4);
    expect(llm.requests.length).toBeGreaterThan(4);
    expect(llm.maxInFlight).toBe(1);
  });
});
