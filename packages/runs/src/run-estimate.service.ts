import { AppError, DEPTH_BUDGETS, Details, isDepth, priceOfTokens, type Depth } from '@research/core';
import { listRecentCompletedRunSpending, type FinishedRunSpending } from '@research/database';
import type { RunsContext } from './context';

/** How many of the last completed runs of a depth an estimate rests on. */
export const ESTIMATE_RUNS = 50;

/**
 * Completion tokens a request is taken to use when no run tells: the analysis prompt, the one most sent,
 * allows its answer 3,000; most answers are far shorter.
 */
const FALLBACK_OUTPUT_TOKENS_PER_REQUEST = 1_000;

/** What a run of a depth is expected to spend, and how many finished runs say so. */
export interface RunEstimate {
  depth: Depth;
  llm_requests: number;
  llm_tokens_input: number;
  llm_tokens_output: number;
  estimated_cost_usd: number | null;
  search_queries: number;
  pages_fetched: number;
  seconds: number;
  based_on_runs: number;
  note: string | null;
}

export interface EstimateInput {
  query: string;
  language: string;
  depth: string;
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

function counterOf(run: FinishedRunSpending, key: string): number {
  const value = run.usage?.[key];
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

function secondsOf(run: FinishedRunSpending): number | null {
  if (!run.started_at || !run.finished_at) return null;
  return Math.max(0, Math.round((run.finished_at.getTime() - run.started_at.getTime()) / 1000));
}

/**
 * POST /v1/research/estimate: what a run of `depth` is expected to spend, as the medians of the service's
 * last ESTIMATE_RUNS completed runs of that depth (a median, so one run that stalled or one cut short by a
 * budget does not move it). Without any, the most the depth's budget allows, with `based_on_runs` 0 and a
 * note saying so. The question is validated as for a run, but the figures depend on the depth alone: a run's
 * spending is bounded by its depth's budget, not by its wording. An unknown depth is SPEC 4.2's 400.
 */
export async function estimateRun(ctx: Pick<RunsContext, 'db' | 'config'>, input: EstimateInput): Promise<RunEstimate> {
  if (!isDepth(input.depth)) throw new AppError('bad_request', Details.invalidDepth(input.depth));
  const depth = input.depth;
  const prices = ctx.config.llm.prices;
  const runs = await listRecentCompletedRunSpending(ctx.db, depth, ESTIMATE_RUNS);
  if (runs.length === 0) {
    const budget = DEPTH_BUDGETS[depth];
    const withLlm = ctx.config.llm.baseUrl !== undefined;
    const requests = withLlm ? budget.max_llm_requests : 0;
    // max_context_per_llm_call bounds a prompt in characters; a token is about four of them.
    const tokensIn = requests * Math.ceil(budget.max_context_per_llm_call / 4);
    const tokensOut = requests * FALLBACK_OUTPUT_TOKENS_PER_REQUEST;
    return {
      depth,
      llm_requests: requests,
      llm_tokens_input: tokensIn,
      llm_tokens_output: tokensOut,
      estimated_cost_usd: priceOfTokens(prices, tokensIn, tokensOut),
      search_queries: budget.max_search_queries,
      pages_fetched: budget.max_sources,
      seconds: budget.max_research_duration_seconds,
      based_on_runs: 0,
      note: `No ${depth} run has completed yet: these are the most the ${depth} budget allows, not what a run usually spends.`,
    };
  }
  const tokensIn = median(runs.map((r) => counterOf(r, 'llm_tokens_input')));
  const tokensOut = median(runs.map((r) => counterOf(r, 'llm_tokens_output')));
  return {
    depth,
    llm_requests: median(runs.map((r) => counterOf(r, 'llm_requests'))),
    llm_tokens_input: tokensIn,
    llm_tokens_output: tokensOut,
    estimated_cost_usd: priceOfTokens(prices, tokensIn, tokensOut),
    search_queries: median(runs.map((r) => counterOf(r, 'search_queries'))),
    pages_fetched: median(runs.map((r) => r.source_count)),
    seconds: median(runs.flatMap((r) => secondsOf(r) ?? [])),
    based_on_runs: runs.length,
    note: null,
  };
}
