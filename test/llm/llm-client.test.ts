import { z } from 'zod';
import { LlmFailure, type LlmCallContext } from '@research/core';
import { createLlmClient } from '@research/llm';
import { createMetrics, createSilentLogger } from '@research/observability';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm';
import { metricValue } from '../worker/metrics-reading';
import { testConfig } from '../worker/worker-fixtures';

const answerSchema = z.object({ answer: z.string().min(1), score: z.number().min(0).max(1) });

function context(overrides: Partial<LlmCallContext['budget']> = {}): LlmCallContext {
  return {
    usage: {},
    budget: { max_llm_requests: 10, max_context_per_llm_call: 16_000, ...overrides },
    signal: new AbortController().signal,
  };
}

describe('LLM client (OpenAI-compatible chat completions)', () => {
  let llm: FakeLlm;
  beforeAll(async () => {
    llm = await startFakeLlm();
  });
  afterAll(async () => {
    await llm?.close();
  });
  beforeEach(() => {
    llm.script.length = 0;
    llm.requests.length = 0;
    llm.latencyMs = 0;
  });

  function client(env: Record<string, string> = {}, metrics = createMetrics({ defaultMetrics: false })) {
    const config = testConfig({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'm1', LLM_TIMEOUT_MS: '400', ...env });
    return {
      client: createLlmClient({ config: config.llm, metrics, logger: createSilentLogger(), retryBaseMs: 5 }),
      metrics,
    };
  }
  const request = { name: 'answer', system: 'Answer.', user: 'Question?', schema: answerSchema };

  it('asks for strict json_schema output, sends the key as a Bearer token, and counts requests and tokens', async () => {
    llm.script.push({ kind: 'json', content: { answer: 'yes', score: 0.5 } });
    const { client: c, metrics } = client({ LLM_API_KEY: 'sk-test-secret' });
    const ctx = context();
    await expect(c.complete(ctx, request)).resolves.toEqual({ answer: 'yes', score: 0.5 });
    const sent = llm.requests[0]!;
    expect(sent.authorization).toBe('Bearer sk-test-secret');
    expect(sent.model).toBe('m1');
    expect(sent.response_format).toEqual({
      type: 'json_schema',
      json_schema: {
        name: 'answer',
        strict: true,
        schema: expect.objectContaining({ type: 'object', additionalProperties: false, required: ['answer', 'score'] }),
      },
    });
    expect(ctx.usage).toEqual({
      llm_requests: 1,
      llm_tokens_input: expect.any(Number),
      llm_tokens_output: expect.any(Number),
    });
    expect(ctx.usage.llm_tokens_input).toBeGreaterThan(0);
    expect(await metricValue(metrics, 'llm_requests_total')).toBe(1);
    expect(await metricValue(metrics, 'llm_tokens_input_total')).toBe(ctx.usage.llm_tokens_input);
    expect(await metricValue(metrics, 'llm_request_duration_seconds_count')).toBe(1);
  });

  it('sends one repair turn with the validation error for malformed or schema-violating answers', async () => {
    llm.script.push(
      { kind: 'raw', content: 'Sure! Here is the JSON: {answer' },
      { kind: 'json', content: { answer: 'ok', score: 1 } },
    );
    const ctx = context();
    await expect(client().client.complete(ctx, request)).resolves.toEqual({ answer: 'ok', score: 1 });
    expect(llm.requests[1]!.messages.at(-1)!.content).toMatch(/not valid JSON/);

    llm.script.push(
      { kind: 'json', content: { answer: '', score: 7 } },
      { kind: 'json', content: { answer: 'x', score: 9 } },
    );
    const failure = client().client.complete(context(), request);
    await expect(failure).rejects.toMatchObject({ kind: 'invalid' });
    expect(llm.requests.at(-1)!.messages.at(-1)!.content).toMatch(/score/);
  });

  it('retries 5xx and 429 (honouring Retry-After), then gives up with a failure the engine falls back on', async () => {
    llm.script.push(
      { kind: 'status', status: 503 },
      { kind: 'status', status: 429, retryAfterSeconds: 0 },
      {
        kind: 'json',
        content: { answer: 'late', score: 0.1 },
      },
    );
    const ctx = context();
    await expect(client().client.complete(ctx, request)).resolves.toMatchObject({ answer: 'late' });
    expect(ctx.usage.llm_requests).toBe(3);

    llm.script.push({ kind: 'status', status: 500 }, { kind: 'status', status: 500 }, { kind: 'status', status: 500 });
    await expect(client().client.complete(context(), request)).rejects.toBeInstanceOf(LlmFailure);
  });

  it('retries 408 like every other timeout, and gives up at once on other 4xx', async () => {
    llm.script.push({ kind: 'status', status: 408 }, { kind: 'json', content: { answer: 'again', score: 0.2 } });
    const ctx = context();
    await expect(client().client.complete(ctx, request)).resolves.toMatchObject({ answer: 'again' });
    expect(ctx.usage.llm_requests).toBe(2);

    llm.script.push({ kind: 'status', status: 400 });
    const refused = context();
    await expect(client().client.complete(refused, request)).rejects.toMatchObject({
      kind: 'http',
      message: 'LLM server answered HTTP 400',
    });
    expect(refused.usage.llm_requests).toBe(1);
  });

  it('times out a slow answer after LLM_TIMEOUT_MS', async () => {
    llm.script.push({ kind: 'hang' }, { kind: 'hang' }, { kind: 'hang' });
    const started = Date.now();
    await expect(client().client.complete(context(), request)).rejects.toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('refuses requests beyond max_llm_requests and prompts beyond max_context_per_llm_call', async () => {
    const spent = context({ max_llm_requests: 2 });
    spent.usage.llm_requests = 2;
    await expect(client().client.complete(spent, request)).rejects.toMatchObject({ kind: 'budget' });
    await expect(client().client.complete(context({ max_context_per_llm_call: 10 }), request)).rejects.toMatchObject({
      kind: 'context',
    });
    expect(llm.requests).toHaveLength(0);
  });

  it('keeps at most LLM_MAX_CONCURRENCY requests in flight across callers of one client', async () => {
    llm.latencyMs = 60;
    const { client: c } = client({ LLM_MAX_CONCURRENCY: '2' });
    const ctx = context({ max_llm_requests: 20 });
    for (let i = 0; i < 6; i++) llm.script.push({ kind: 'json', content: { answer: `a${i}`, score: 0 } });
    await Promise.all(Array.from({ length: 6 }, () => c.complete(ctx, request)));
    expect(llm.maxInFlight).toBe(2);
    expect(ctx.usage.llm_requests).toBe(6);
  });
});
