import { DEPTH_BUDGETS, ROUNDS_BY_DEPTH, isDepth, maxLlmTokensOf, type Budget, type Depth } from '@research/core';

/** The usage counters kept on a run that a budget limits. */
export type BudgetedResource = 'search_queries' | 'llm_requests' | 'download_bytes';

const LIMIT_OF: Record<BudgetedResource, keyof Budget> = {
  search_queries: 'max_search_queries',
  llm_requests: 'max_llm_requests',
  download_bytes: 'max_total_download_bytes',
};

/**
 * A run's budget: its limits (the stored budget over its depth's defaults) and what it used so far. The
 * limits read as the stored budget's fields; `usage` is the run's counters, which the LLM client adds its
 * requests and tokens to. Each step works on a copy (`forStep`), so a step that is not committed leaves the
 * run's usage as it was.
 */
export interface RunBudget extends Readonly<Budget> {
  readonly depth: Depth;
  /** Rounds the depth gives (1, 2 or 3). */
  readonly rounds: number;
  /** The run's cap on LLM tokens in and out together (create field max_llm_tokens), null without one. */
  readonly max_llm_tokens: number | null;
  /** What the run used (llm_requests, llm_tokens_*, search_queries, download_bytes, sources_rejected). */
  readonly usage: Record<string, number>;
  /** What is left of a resource (never below 0). */
  remaining(resource: BudgetedResource): number;
  /** Counts `amount` of a counter as used. */
  take(resource: string, amount: number): void;
  /**
   * Search queries a round may send: later rounds keep a share of the budget (up to 5 each), round 1
   * gets the rest; a later round gets an even share of what is left over the remaining rounds.
   */
  queryAllowance(round: number, rounds: number, used?: number): number;
  /** Sources a round may add given the `known` ones: an even share of the room left over the remaining rounds. */
  sourceAllowance(known: number, round: number, rounds: number): number;
  /**
   * Of a round's query `allowance`, what the search step leaves to the fetch step's hops for the names the
   * pages read give (LINK_SHARE of it), none when the round has fewer than 3 to spend.
   */
  linkReserve(allowance: number): number;
  /** A copy with its own usage, for one step. */
  forStep(): RunBudget;
}

/**
 * The share of a round's queries kept for the names its pages give: the question and the names it holds need a
 * few queries; a question of two or more steps needs as many again for the names that lead to its answer.
 */
// Swept on the tune sets (first 300 of each; every gold page read, HotpotQA / 2Wiki / MuSiQue): 0.3: 82.7 / 72.0 /
// 50.8 %, 0.5: 83.0 / 72.0 / 50.8 %, 0.7: 82.7 / 71.7 / 52.5 % — flat; a factoid's question and names need few.
export const LINK_SHARE = 0.5;

function readLimits(stored: unknown, depth: Depth): Budget {
  const budget: Budget = { ...DEPTH_BUDGETS[depth] };
  if (stored && typeof stored === 'object') {
    for (const key of Object.keys(budget) as Array<keyof Budget>) {
      const value = (stored as Record<string, unknown>)[key];
      if (typeof value === 'number' && Number.isFinite(value) && value >= 1) budget[key] = Math.floor(value);
    }
  }
  return budget;
}

function readUsage(stored: unknown): Record<string, number> {
  const usage: Record<string, number> = {};
  if (stored && typeof stored === 'object') {
    for (const [key, value] of Object.entries(stored))
      if (typeof value === 'number' && Number.isFinite(value)) usage[key] = value;
  }
  return usage;
}

function makeBudget(
  depth: Depth,
  limits: Budget,
  maxLlmTokens: number | null,
  usage: Record<string, number>,
): RunBudget {
  const rounds = ROUNDS_BY_DEPTH[depth];
  const used = (resource: string) => usage[resource] ?? 0;
  return {
    ...limits,
    depth,
    rounds,
    max_llm_tokens: maxLlmTokens,
    usage,
    remaining: (resource) => Math.max(0, limits[LIMIT_OF[resource]] - used(resource)),
    take(resource, amount) {
      usage[resource] = used(resource) + amount;
    },
    queryAllowance(round, runRounds, sent = used('search_queries')) {
      const left = Math.max(0, limits.max_search_queries - sent);
      if (round === 1) {
        const reserve = (runRounds - 1) * Math.min(5, Math.floor(limits.max_search_queries / (2 * runRounds)));
        return Math.max(1, left - reserve);
      }
      return Math.ceil(left / Math.max(1, runRounds - round + 1));
    },
    sourceAllowance(known, round, runRounds) {
      const left = Math.max(0, limits.max_sources - known);
      return Math.ceil(left / Math.max(1, runRounds - round + 1));
    },
    linkReserve: (allowance) => (allowance < 3 ? 0 : Math.floor(allowance * LINK_SHARE)),
    forStep: () => makeBudget(depth, limits, maxLlmTokens, { ...usage }),
  };
}

/**
 * The budget of a run as stored: its depth (normal when unknown), its budget (each field over the depth's
 * default when missing or invalid) and its usage. The one place besides core and the create route that
 * knows the depth table.
 */
export function runBudgetOf(run: { depth: string; budget: unknown; usage?: unknown }): RunBudget {
  const depth: Depth = isDepth(run.depth) ? run.depth : 'normal';
  return makeBudget(depth, readLimits(run.budget, depth), maxLlmTokensOf(run.budget), readUsage(run.usage));
}
