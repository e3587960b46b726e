import type { RunCost, RunEstimate } from '../api/types';
import { costParts, estimateText, formatUsd } from './cost';

const cost: RunCost = {
  llm_requests: 12,
  llm_tokens_input: 31_200,
  llm_tokens_output: 4_100,
  search_queries: 9,
  pages_fetched: 1,
  estimated_cost_usd: 0.0132,
  max_llm_tokens: null,
};

const estimate: RunEstimate = {
  depth: 'quick',
  llm_requests: 9,
  llm_tokens_input: 21_400,
  llm_tokens_output: 2_600,
  estimated_cost_usd: 0.00477,
  search_queries: 8,
  pages_fetched: 11,
  seconds: 41,
  based_on_runs: 50,
  note: null,
};

describe('what a run costs, in words', () => {
  it('names calls, tokens, queries, pages and the price', () => {
    expect(costParts(cost)).toEqual([
      '12 LLM calls',
      '31,200 tokens in, 4,100 out',
      '9 search queries',
      '1 page',
      'about $0.0132',
    ]);
  });

  it('leaves the price out without prices, and counts the tokens against a cap', () => {
    expect(costParts({ ...cost, estimated_cost_usd: null, max_llm_tokens: 50_000 })).toEqual([
      '12 LLM calls',
      '35,300 of 50,000 tokens allowed',
      '9 search queries',
      '1 page',
    ]);
  });

  it('prices in cents from a dollar, in four decimals below, and never shows a tiny price as zero', () => {
    expect(formatUsd(2.5)).toBe('$2.50');
    expect(formatUsd(0.0132)).toBe('$0.0132');
    expect(formatUsd(0)).toBe('$0.0000');
    expect(formatUsd(0.00001)).toBe('< $0.0001');
  });

  it('words the estimate of a depth from its runs, or from its budget when it has none', () => {
    expect(estimateText(estimate)).toBe(
      'A quick run usually takes 9 LLM calls (21,400 tokens in, 2,600 out, about $0.0048), 8 search queries and 11 pages, in 0:41 (the median of the last 50 quick runs).',
    );
    expect(
      estimateText({ ...estimate, based_on_runs: 0, llm_requests: 0, estimated_cost_usd: null, seconds: 1800 }),
    ).toBe(
      'No quick run has finished here yet. Its budget allows at most 8 search queries and 11 pages, in 30:00, without an LLM call.',
    );
  });
});
