import { DEPTH_BUDGETS, loadConfig, type LlmClient } from '@research/core';
import type { RunRow, SourceRow } from '@research/database';
import { createLlmClient } from '@research/llm';
import { createMetrics, createSilentLogger } from '@research/observability';
import { planWithoutRun, runStepOnRun, type OutsideLoop, type RunNote } from '@research/pipeline';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm';

// The pipeline's steps as the mounted routes run them: on one request, outside the job loop.
describe('a step run on a run outside the job loop', () => {
  let llm: FakeLlm;
  let client: LlmClient;
  const metrics = createMetrics({ defaultMetrics: false });
  const text =
    'Photosynthesis converts light energy into chemical energy stored in glucose molecules. ' +
    'Chlorophyll absorbs mostly blue and red light, which is why leaves look green to the human eye. ';

  beforeAll(async () => {
    llm = await startFakeLlm();
    const config = loadConfig({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'fake-model', LOG_LEVEL: 'error' });
    client = createLlmClient({ config: config.llm, metrics, logger: createSilentLogger(), retryBaseMs: 1 });
  });
  afterAll(() => llm.close());

  const outside = (withLlm: boolean): OutsideLoop => ({
    services: {
      llm: withLlm ? client : null,
      searchProvider: null as never,
      crawler: null as never,
      localCorpusDir: undefined,
    },
    logger: createSilentLogger(),
    metrics,
    signal: new AbortController().signal,
  });
  const ended = (notes: RunNote[] = []): RunRow =>
    ({
      id: '5d1f0c4e-2b7a-4c8e-9a43-0f6b1d2e3c4a',
      query: 'How does photosynthesis work?',
      language: 'en',
      depth: 'quick',
      budget: DEPTH_BUDGETS.quick,
      // The run spent its whole LLM budget on its own steps.
      usage: { llm_requests: DEPTH_BUDGETS.quick.max_llm_requests, search_queries: 4 },
      checkpoint: { round: 1, done: ['plan', 'search', 'fetch', 'analyze', 'compare', 'synthesize'], rounds: 1, notes },
      created_at: new Date('2026-11-01T00:00:00Z'),
      extra_queries: [],
      plan: null,
    }) as unknown as RunRow;
  const source = {
    id: '9b2c7a1e-4f3d-4e6a-8b5c-1d2e3f4a5b6c',
    run_id: '5d1f0c4e-2b7a-4c8e-9a43-0f6b1d2e3c4a',
    round: 1,
    position: 0,
    url: 'https://example.org/photosynthesis',
    title: 'Photosynthesis',
    domain: 'example.org',
    source_type: 'other',
    retrieved_at: new Date('2026-11-01T00:00:00Z'),
    content: text.repeat(3),
    published_at: null,
    language: 'en',
  } as SourceRow;
  const snapshot = { plan: null, searchResults: [], sources: [source], claims: [], evidence: [], graph: null };

  it('asks the LLM for a run whose own steps spent its LLM budget (a request counts its own calls)', async () => {
    const before = llm.requests.length;
    const { output, events } = await runStepOnRun('analyze', { ...outside(true), run: ended(), snapshot, round: 1 });
    expect(llm.requests.length).toBeGreaterThan(before);
    expect(output.length).toBeGreaterThan(0);
    expect(events).toContainEqual({ kind: 'engine', step: 'analyze', round: 1, mode: 'llm' });
  });

  it("answers with the events of this call only, not the run's earlier ones of that step", async () => {
    const earlier: RunNote[] = [
      { kind: 'engine', step: 'synthesize', round: 1, mode: 'llm' },
      { kind: 'search', round: 1, sent: 4, hits: 6 },
    ];
    const { output, events } = await runStepOnRun('synthesize', { ...outside(false), run: ended(earlier), snapshot });
    expect(output.summary.length).toBeGreaterThan(0);
    expect(events.filter((e) => e.kind === 'engine')).toEqual([
      { kind: 'engine', step: 'synthesize', round: 1, mode: 'extractive' },
    ]);
  });

  it('plans a question without a run with the plan step, and says which planner wrote it', async () => {
    const { plan, events } = await planWithoutRun(
      { query: 'How does photosynthesis work?', language: 'en', extraQueries: [], referenceDate: new Date() },
      'quick',
      outside(false),
    );
    expect(plan.search_queries.length).toBeGreaterThan(0);
    expect(events).toEqual([{ kind: 'engine', step: 'plan', round: 1, mode: 'extractive' }]);
  });
});
