import request from 'supertest';
import { createLlmClient } from '@research/llm';
import { createMetrics, createSilentLogger } from '@research/observability';
import { createResearchRunner } from '@research/pipeline';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm';
import { startFakeWiki, type FakeWiki } from '../fakes/fake-wiki';
import { PHOTOSYNTHESIS_CORPUS } from '../fakes/wiki-corpus';
import { buildTestApp, insertTestRun, type TestApp } from '../http/support';
import { createWorkerEngine, type WorkerEngine } from '../support/engine';
import { waitFor } from '../support/wait';
import { inProcessWorkerConfig, runRow } from './worker-fixtures';

// POST /v1/research/{id}/cancel while the worker waits on a model that never answers: the run ends at once,
// and the worker's step lets go of the LLM request (its abort signal closes the connection).
describe('a stop in the middle of an LLM call', () => {
  let t: TestApp;
  let wiki: FakeWiki;
  let llm: FakeLlm;
  let worker: WorkerEngine;

  beforeAll(async () => {
    t = await buildTestApp('cancelllm');
    wiki = await startFakeWiki({ pages: PHOTOSYNTHESIS_CORPUS });
    llm = await startFakeLlm();
    worker = createWorkerEngine(
      inProcessWorkerConfig(wiki.apiUrl, {
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: 'fake-model',
        LLM_TIMEOUT_MS: '60000',
      }),
      { db: t.db },
    );
  });
  afterAll(async () => {
    await worker.close();
    await llm.close();
    await wiki.close();
    await t.close();
  });

  it('ends the run within 5 s and aborts the request the planner waits on', async () => {
    llm.script.push({ kind: 'hang' });
    const runId = await insertTestRun(t.db, { owner: t.owner.id, query: 'How does photosynthesis work?' });
    const metrics = createMetrics({ defaultMetrics: false });
    const config = inProcessWorkerConfig(wiki.apiUrl, { LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model' });
    const model = createLlmClient({ config: config.llm, metrics, logger: createSilentLogger() });
    const services = { ...worker.services, llm: model };
    const runner = createResearchRunner({ db: t.db, services, metrics, logger: createSilentLogger() });
    const job = { id: 'job', attempt: 1, maxAttempts: 5, afterOutage: false, signal: new AbortController().signal };
    const working = runner({ research_id: runId }, job);
    await waitFor('the planner to ask the model', async () => llm.requests.length > 0, 10_000, 20);

    const started = Date.now();
    const res = await request(t.app).post(`/v1/research/${runId}/cancel`).set('X-API-Key', t.owner.key);
    expect(res.status).toBe(202);
    await expect(working).resolves.toBe('done');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect((await runRow(t.db, runId)).state).toBe('cancelled');
    // The hanging request was given up by the client, not answered.
    expect(llm.requests[0]!.answeredAt).toBe(0);
    const report = await request(t.app).get(`/v1/research/${runId}/report`).set('X-API-Key', t.owner.key);
    expect(report.body.uncertainties.join(' ')).toContain(
      'Die Recherche wurde vor ihrem Ende angehalten (bei Planung, Runde 1)',
    );
  }, 30_000);
});
