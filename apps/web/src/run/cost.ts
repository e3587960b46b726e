import type { RunCost, RunEstimate } from '../api/types';
import { formatElapsed } from './step-progress';

// How the page words what a run spent and what a run of a depth is expected to spend.

const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** "1 LLM call", "2 LLM calls". */
function plural(n: number, one: string, many = `${one}s`): string {
  return `${count(n)} ${n === 1 ? one : many}`;
}

/** A price in USD: cents for a dollar or more, four decimals below (a run's LLM often costs a fraction of a cent). */
export function formatUsd(usd: number): string {
  if (usd > 0 && usd < 0.0001) return '< $0.0001';
  return `$${usd >= 1 ? usd.toFixed(2) : usd.toFixed(4)}`;
}

/** The parts of a run's cost, each a short phrase: calls, tokens, queries, pages and the price when there is one. */
export function costParts(cost: RunCost): string[] {
  const tokens =
    cost.max_llm_tokens !== null
      ? `${count(cost.llm_tokens_input + cost.llm_tokens_output)} of ${count(cost.max_llm_tokens)} tokens allowed`
      : `${count(cost.llm_tokens_input)} tokens in, ${count(cost.llm_tokens_output)} out`;
  return [
    plural(cost.llm_requests, 'LLM call'),
    tokens,
    plural(cost.search_queries, 'search query', 'search queries'),
    plural(cost.pages_fetched, 'page'),
    ...(cost.estimated_cost_usd !== null ? [`about ${formatUsd(cost.estimated_cost_usd)}`] : []),
  ];
}

/** "a", "a and b", "a, b and c". */
function listed(parts: readonly string[]): string {
  return parts.length <= 1 ? (parts[0] ?? '') : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}`;
}

/** The estimate of a depth in one sentence: what a run usually spends, or the most its budget allows without runs. */
export function estimateText(e: RunEstimate): string {
  const price = e.estimated_cost_usd !== null ? `, about ${formatUsd(e.estimated_cost_usd)}` : '';
  const llm =
    e.llm_requests > 0
      ? [
          `${plural(e.llm_requests, 'LLM call')} (${count(e.llm_tokens_input)} tokens in, ${count(e.llm_tokens_output)} out${price})`,
        ]
      : [];
  const work = listed([
    ...llm,
    plural(e.search_queries, 'search query', 'search queries'),
    plural(e.pages_fetched, 'page'),
  ]);
  const time = `in ${formatElapsed(e.seconds * 1000)}${e.llm_requests > 0 ? '' : ', without an LLM call'}`;
  if (e.based_on_runs === 0)
    return `No ${e.depth} run has finished here yet. Its budget allows at most ${work}, ${time}.`;
  const runs = e.based_on_runs === 1 ? `the last ${e.depth} run` : `the last ${e.based_on_runs} ${e.depth} runs`;
  return `A ${e.depth} run usually takes ${work}, ${time} (the median of ${runs}).`;
}
