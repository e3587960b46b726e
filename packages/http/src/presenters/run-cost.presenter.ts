import type { RunEstimate } from '@research/runs';
import type { EstimateResponse } from '../routes/estimate.schemas';

/** POST /v1/research/estimate: the expected spending of a run of the depth, and what it rests on. */
export function presentEstimate(estimate: RunEstimate): EstimateResponse {
  return {
    depth: estimate.depth,
    llm_requests: estimate.llm_requests,
    llm_tokens_input: estimate.llm_tokens_input,
    llm_tokens_output: estimate.llm_tokens_output,
    estimated_cost_usd: estimate.estimated_cost_usd,
    search_queries: estimate.search_queries,
    pages_fetched: estimate.pages_fetched,
    seconds: estimate.seconds,
    based_on_runs: estimate.based_on_runs,
    note: estimate.note,
  };
}
