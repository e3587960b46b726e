import type { LlmPrices } from './config';

/** The most tokens (prompt and completion together) a run's `max_llm_tokens` may allow. */
export const MAX_LLM_TOKENS_LIMIT = 100_000_000;

/**
 * What a run spent so far, as its status, its manifest, the web page and the MCP tools show it: its LLM
 * requests and the tokens the provider reported, its search queries, the pages it read and the price
 * those tokens cost at the configured prices (null without them).
 */
export interface RunCost {
  llm_requests: number;
  llm_tokens_input: number;
  llm_tokens_output: number;
  search_queries: number;
  pages_fetched: number;
  /** Estimated USD at LLM_PRICE_INPUT_PER_MTOK and LLM_PRICE_OUTPUT_PER_MTOK; null when either is unset. */
  estimated_cost_usd: number | null;
  /** The run's cap on tokens in and out together, null when it has none. */
  max_llm_tokens: number | null;
}

/** The price of tokens at `prices`, in USD rounded to a millionth of a dollar; null without prices. */
export function priceOfTokens(prices: LlmPrices | null, tokensIn: number, tokensOut: number): number | null {
  if (!prices) return null;
  const usd = (tokensIn * prices.inputPerMtok + tokensOut * prices.outputPerMtok) / 1_000_000;
  return Math.round(usd * 1_000_000) / 1_000_000;
}

/** The run's cap on LLM tokens as stored in its budget, null when it has none (or an unreadable one). */
export function maxLlmTokensOf(budget: unknown): number | null {
  const value = budget && typeof budget === 'object' ? (budget as Record<string, unknown>)['max_llm_tokens'] : null;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : null;
}

function counter(usage: Readonly<Record<string, unknown>> | null | undefined, key: string): number {
  const value = usage?.[key];
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0;
}

/** A run's cost from its stored usage counters, the pages it holds, its budget and the configured prices. */
export function runCostOf(
  run: { usage: Readonly<Record<string, unknown>> | null | undefined; budget: unknown; pages: number },
  prices: LlmPrices | null,
): RunCost {
  const tokensIn = counter(run.usage, 'llm_tokens_input');
  const tokensOut = counter(run.usage, 'llm_tokens_output');
  return {
    llm_requests: counter(run.usage, 'llm_requests'),
    llm_tokens_input: tokensIn,
    llm_tokens_output: tokensOut,
    search_queries: counter(run.usage, 'search_queries'),
    pages_fetched: Math.max(0, run.pages),
    estimated_cost_usd: priceOfTokens(prices, tokensIn, tokensOut),
    max_llm_tokens: maxLlmTokensOf(run.budget),
  };
}
