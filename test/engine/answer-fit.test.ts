import { DEPTH_BUDGETS, loadConfig } from '@research/core';
import { answerKindOf, bridgeQueries, fitsAnswer, planBridge, snippetQueries } from '@research/engine';
import { createLlmClient } from '@research/llm';
import { createMetrics, createSilentLogger } from '@research/observability';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm';

// What kind of answer a question asks for, and whether a sentence holds one it does not already give.
describe('answer kinds', () => {
  it('reads the kind of answer from the question words, in the service languages', () => {
    expect(answerKindOf('In what year did the bridge open to traffic?')).toBe('year');
    expect(answerKindOf('Wann wurde die Brücke eröffnet?')).toBe('year');
    expect(answerKindOf('How many people can the stadium seat?')).toBe('number');
    expect(answerKindOf('Combien de personnes vivent à Lyon ?')).toBe('number');
    expect(answerKindOf('Who designed the lighthouse on the northern cape?')).toBe('name');
    expect(answerKindOf('¿Dónde nació la pintora?')).toBe('name');
    expect(answerKindOf('Remote work lowers productivity')).toBe('open');
  });

  it('counts only an answer the question does not give', () => {
    const q = 'In what year did the 1998 expedition reach the summit?';
    expect(fitsAnswer('The expedition of 1998 reached the summit in 2001.', 'year', q)).toBe(true);
    expect(fitsAnswer('The 1998 expedition was long and cold.', 'year', q)).toBe(false);
    const n = 'How many seats does the Riverside Arena have after its 2010 rebuild?';
    expect(fitsAnswer('After the 2010 rebuild the arena holds 4,200 spectators.', 'number', n)).toBe(true);
    expect(fitsAnswer('The arena was rebuilt in 2010.', 'number', n)).toBe(false);
    const w = 'Who founded the Marlow Rowing Club?';
    expect(fitsAnswer('The club was founded by Edith Carrow and her brother.', 'name', w)).toBe(true);
    expect(fitsAnswer('The Marlow Rowing Club rows on the river.', 'name', w)).toBe(false);
  });
});

const LIBRARY = {
  question: 'Where was the architect of the Harbour Library born?',
  language: 'en',
  limit: 3,
  sources: [
    {
      title: 'Harbour Library',
      content:
        'The Harbour Library was designed by the architect Ilse Marten with the engineer Paul Roder in 1931. ' +
        'The Harbour Library holds maps of the Baltic coast. Visitors come from Denmark every summer.',
    },
  ],
};

describe('second-hop names', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake.close());

  function llmContext() {
    const config = loadConfig({ LLM_BASE_URL: fake.baseUrl, LOG_LEVEL: 'error' }).llm;
    const llm = createLlmClient({
      config,
      metrics: createMetrics({ defaultMetrics: false }),
      logger: createSilentLogger(),
      retryBaseMs: 1,
      maxAttempts: 1,
    });
    const ctx = {
      usage: {} as Record<string, number>,
      budget: DEPTH_BUDGETS.quick,
      signal: new AbortController().signal,
    };
    return { llm, ctx };
  }

  it('asks the model, in one call, for what the question needs that the sentences name', async () => {
    const { llm, ctx } = llmContext();
    const sent = fake.requests.length;
    const result = await planBridge(llm, ctx, LIBRARY);
    expect(fake.requests.slice(sent).map((r) => r.schemaName)).toEqual(['bridge_queries']);
    expect(result.mode).toBe('llm');
    expect(result.queries).toContain('Ilse Marten');
    expect(result.queries).not.toContainEqual(expect.stringMatching(/Harbour Library/));
    expect(ctx.usage.llm_requests).toBe(1);
  });

  it('falls back to the names the pages give when the model fails, and says why', async () => {
    const { llm, ctx } = llmContext();
    fake.script.push({ kind: 'status', status: 500 });
    const result = await planBridge(llm, ctx, LIBRARY);
    expect(result).toEqual(
      expect.objectContaining({ mode: 'extractive', queries: ['Ilse Marten', 'Paul Roder', 'Baltic'] }),
    );
    expect(result.fallback).toBeDefined();
  });

  it('finds the names the best sentences give that the question does not, several words first', async () => {
    const names = await bridgeQueries({
      ...LIBRARY,
      sources: [...LIBRARY.sources, { title: 'Ilse Marten', content: 'Ilse Marten studied in Vienna.' }],
    });
    // The library is the question's own name: it is not searched; the other names of the sentences about
    // the library are, a name of two words before a lone word, and nothing from the sentence that does not
    // concern the question (Denmark). Ilse Marten's page is read, and her name is still searched: for the
    // pages that mention her.
    expect(names).toEqual(['Ilse Marten', 'Paul Roder', 'Baltic']);
  });

  it("reads the hits' snippets for names of several words whose page is not among the hits yet", async () => {
    const snippets = {
      ...LIBRARY,
      sources: [
        {
          title: 'Harbour Library',
          content:
            'The Harbour Library was designed by the architect Ilse Marten with the engineer Paul Roder in 1931.',
        },
        { title: 'Baltic coast', content: 'The Baltic coast of the Harbour Library town has maps since 1931.' },
      ],
    };
    // Paul Roder's page is a hit already: his name is not searched for it; Baltic is a lone word.
    const names = await snippetQueries(snippets, ['Harbour Library', 'Baltic coast', 'Paul Roder (engineer)']);
    expect(names).toEqual(['Ilse Marten']);
    // Without his page among the hits he is searched too, within the limit.
    expect(await snippetQueries(snippets, ['Harbour Library'])).toEqual(['Ilse Marten', 'Paul Roder']);
    expect(await snippetQueries({ ...snippets, limit: 1 }, [])).toEqual(['Ilse Marten']);
  });

  it('searches a name written out in full as the title of the page the run read about it', async () => {
    const names = await bridgeQueries({
      ...LIBRARY,
      sources: [
        {
          title: 'Harbour Library',
          content: 'The Harbour Library was designed by the architect Ilse Johanna Marten in 1931.',
        },
        { title: 'Ilse Marten', content: 'Ilse Marten studied in Vienna.' },
      ],
    });
    expect(names).toEqual(['Ilse Marten']);
  });
});
