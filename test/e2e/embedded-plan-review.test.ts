import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { freePort, killAllProcesses, spawnNodeProcess, waitForLogLine, type NodeProcess } from '../support/processes';
import { waitFor } from '../support/wait';
import { STANDALONE_MAIN, client } from './support';

const QUESTION = { query: 'photosynthesis light energy plants', depth: 'quick', language: 'en' };
const EDITED_QUERY = 'chlorophyll pigment absorbs light';

// Plan review in `npm start`'s embedded mode: PGlite and the in-process queue, one process for API and worker.
describe('plan review on the embedded defaults', () => {
  let dir: string;
  let wiki: FakeWiki;
  let port: number;
  let env: Record<string, string>;
  let service: NodeProcess;
  let api: ReturnType<typeof client>;

  const start = async (extra: Record<string, string> = {}) => {
    service = spawnNodeProcess('service', STANDALONE_MAIN, { ...env, ...extra });
    await waitForLogLine(service, 'service listening', 60_000);
  };
  const stop = async () => {
    service.child.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
  };
  const stateOf = async (id: string) => (await api('GET', `/v1/research/${id}`)).body.state as string;
  const awaiting = (id: string) =>
    service.lines.some((l) => l.message === 'research run awaits the review of its plan' && l.research_id === id);

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rs-embedded-review-'));
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
    port = await freePort();
    env = {
      DATA_DIR: dir,
      PORT: String(port),
      HOST: '127.0.0.1',
      WIKIPEDIA_API_URL: wiki.apiUrl,
      RECONCILE_INTERVAL_MS: '300',
      CRAWLER_ALLOW_PRIVATE_NETWORKS: 'true',
    };
    await start();
    api = client(`http://127.0.0.1:${port}`, fs.readFileSync(path.join(dir, 'initial-admin-key'), 'utf8').trim());
  }, 90_000);
  afterAll(async () => {
    await killAllProcesses();
    await wiki.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('waits across a restart, then is edited, approved and completes with the edited query', async () => {
    const created = await api('POST', '/v1/research', { ...QUESTION, review_plan: true });
    const id = created.body.research_id as string;
    await waitFor('the run to await review', async () => awaiting(id), 30_000);
    expect(await stateOf(id)).toBe('awaiting_review');
    // Its status says it was asked with a review (PGlite's column, read by the keyed statement).
    expect((await api('GET', `/v1/research/${id}`)).body).toMatchObject({ review_plan: true, collections: null });

    await stop();
    await start();
    // The restarted process's reconciler passes (every 300 ms) while a plain run is taken up and completed:
    // the run awaiting review is left as it is.
    const plain = await api('POST', '/v1/research', QUESTION);
    const plainId = plain.body.research_id as string;
    await waitFor('the plain run to complete', async () => (await stateOf(plainId)) === 'completed', 45_000);
    expect(await stateOf(id)).toBe('awaiting_review');
    expect(service.lines.some((l) => l.research_id === id)).toBe(false);

    const searchedBefore = wiki.searched.length;
    const edited = await api('PUT', `/v1/research/${id}/plan`, { search_queries: [EDITED_QUERY] });
    expect(edited.status).toBe(200);
    expect((await api('POST', `/v1/research/${id}/approve`)).status).toBe(202);
    await waitFor('the approved run to complete', async () => (await stateOf(id)) === 'completed', 45_000);
    expect(wiki.searched.slice(searchedBefore)).toContain(EDITED_QUERY);
    const types = (await api('GET', `/v1/research/${id}/events?limit=1000`)).body.items.map((e: any) =>
      e.type === 'review' ? `review:${e.action}` : e.type,
    );
    expect(types).toEqual(expect.arrayContaining(['review:waiting', 'review:edited', 'review:approved', 'report']));
  }, 150_000);

  it('expires a review left longer than PLAN_REVIEW_TIMEOUT_SECONDS: cancelled, saying why', async () => {
    await stop();
    await start({ PLAN_REVIEW_TIMEOUT_SECONDS: '1' });
    const created = await api('POST', '/v1/research', { ...QUESTION, review_plan: true });
    const id = created.body.research_id as string;
    await waitFor('the run to await review', async () => awaiting(id), 30_000);
    await waitFor('the review to expire', async () => (await stateOf(id)) === 'cancelled', 30_000);
    const status = await api('GET', `/v1/research/${id}`);
    expect(status.body.error).toBe(
      'The plan waited for review longer than 1 s (PLAN_REVIEW_TIMEOUT_SECONDS); the run was cancelled.',
    );
    const report = await api('GET', `/v1/research/${id}/report`);
    expect(report.body.uncertainties.join(' ')).toMatch(/stopped before it finished/);
    expect((await api('POST', `/v1/research/${id}/approve`)).status).toBe(409);
    await stop();
  }, 120_000);
});
