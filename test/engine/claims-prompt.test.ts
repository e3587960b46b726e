import type { LlmCallContext } from '@research/core';
import { analyzeSources, claimsPromptV2, planTerms } from '@research/engine';
import { createLlmClient, jsonSchemaOf } from '@research/llm';
import { createMetrics, createSilentLogger } from '@research/observability';
import { startFakeLlm, stanceJudgeResponder, type FakeLlm } from '../fakes/fake-llm';
import { testConfig } from '../worker/worker-fixtures';

// Sentences written for these tests (none taken from a data set).
const QUESTION = 'Is coffee consumption linked to a longer life?';
const SUPPORTING = 'People who drank coffee every day lived two years longer than those who drank none.';
const REFUTING = 'After adjusting for smoking, coffee drinkers and abstainers died at the same rate.';
const PASSAGE = `${SUPPORTING}\n${REFUTING}\nThe cafe on the corner sells pastries.`;

const v1Claim = { claim_text: SUPPORTING, evidence_span: SUPPORTING, claim_type: 'fact', confidence: 0.8 };

describe('the claims prompt (claims.v2)', () => {
  it('asks for each claim’s stance in the strict schema it sends', () => {
    const sent = jsonSchemaOf(claimsPromptV2.schema) as {
      properties: { claims: { items: { required: string[]; properties: Record<string, { enum?: string[] }> } } };
    };
    const item = sent.properties.claims.items;
    expect(item.required).toEqual(['claim_text', 'evidence_span', 'claim_type', 'confidence', 'stance']);
    expect(item.properties.stance!.enum).toEqual(['supports', 'refutes', 'neutral']);
    expect(claimsPromptV2.system).toMatch(/supports .*refutes .*neutral/s);
  });

  it('parses answers with a stance, and version 1 answers without one', () => {
    expect(claimsPromptV2.schema.parse({ claims: [{ ...v1Claim, stance: 'refutes' }] }).claims[0]!.stance).toBe(
      'refutes',
    );
    expect(claimsPromptV2.schema.parse({ claims: [v1Claim] }).claims[0]!.stance).toBeUndefined();
    expect(claimsPromptV2.schema.safeParse({ claims: [{ ...v1Claim, stance: 'disputes' }] }).success).toBe(false);
  });
});

describe('claim extraction with the stance of each claim', () => {
  let llm: FakeLlm;
  beforeAll(async () => {
    llm = await startFakeLlm();
  });
  afterAll(async () => {
    await llm?.close();
  });

  function extract() {
    const config = testConfig({ LLM_BASE_URL: llm.baseUrl, LLM_MODEL: 'm1' });
    const client = createLlmClient({
      config: config.llm,
      metrics: createMetrics({ defaultMetrics: false }),
      logger: createSilentLogger(),
      retryBaseMs: 1,
    });
    const ctx: LlmCallContext = {
      usage: {},
      budget: { max_llm_requests: 5, max_context_per_llm_call: 16_000 },
      signal: new AbortController().signal,
    };
    return analyzeSources(client, ctx, {
      runId: 'run-1',
      question: QUESTION,
      subQuestions: [],
      language: 'en',
      terms: planTerms(null, QUESTION),
      sources: [{ id: 's1', url: 'https://coffee.example.org/study', title: 'Coffee study', content: PASSAGE }],
      llmAllowance: 5,
    });
  }

  it('keeps the stance the model gives each claim, in the same request as the claims', async () => {
    llm.requests.length = 0;
    llm.responder = stanceJudgeResponder(
      new Map([
        [
          QUESTION,
          [
            { sentence: SUPPORTING, stance: 'supports' as const },
            { sentence: REFUTING, stance: 'refutes' as const },
          ],
        ],
      ]),
      { misses: 0, falseRefutations: 0 },
    );
    const result = await extract();
    expect(result.mode).toBe('llm');
    expect(llm.requests.map((r) => r.schemaName)).toEqual(['claims']);
    expect(result.claims.map((c) => [c.evidence_span, c.stance])).toEqual([
      [SUPPORTING, 'supports'],
      [REFUTING, 'refutes'],
    ]);
  });

  it('leaves the stance unset when the model answers without one', async () => {
    llm.script.push({ kind: 'json', content: { claims: [v1Claim] } });
    const result = await extract();
    expect(result.claims[0]).toEqual(expect.objectContaining({ evidence_span: SUPPORTING, stance: null }));
    // The sentence the model left out is the engine's claim, with no stance either.
    expect(result.claims.slice(1)).toEqual([expect.objectContaining({ evidence_span: REFUTING })]);
    expect(result.claims[1]!.stance ?? null).toBeNull();
  });

  it('keeps the whole sentence beside the part of it the model quoted', async () => {
    const part = 'coffee drinkers and abstainers died at the same rate';
    llm.script.push({
      kind: 'json',
      content: { claims: [v1Claim, { claim_text: part, evidence_span: part, claim_type: 'fact', confidence: 0.8 }] },
    });
    const result = await extract();
    expect(result.claims.map((c) => c.evidence_span)).toEqual([SUPPORTING, part, REFUTING]);
  });
});
