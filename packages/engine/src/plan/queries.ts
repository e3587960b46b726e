import { queryKey, type Plan } from '@research/core';
import { questionNames } from '../text/names';
import { termSet } from '../text/tokens';

/** A search query with the plan dimension it serves. */
export interface PlannedQuery {
  query: string;
  dimension: string;
}

/** The queries without blank ones and without repeats (compared by queryKey), in order. */
export function dedupeQueries<T extends PlannedQuery>(queries: readonly T[]): T[] {
  const seen = new Set<string>();
  return queries.filter((q) => {
    const key = queryKey(q.query);
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The user's extra search queries as stored on the run (jsonb), blank ones removed. */
export function userQueries(stored: unknown): string[] {
  return Array.isArray(stored) ? stored.filter((q): q is string => typeof q === 'string' && q.trim() !== '') : [];
}

/** The dimension of the question itself, searched verbatim first in every run, whoever planned it. */
export const QUESTION_DIMENSION = 'question';

/** Longest query sent to a search provider (the question is cut here, as the user's extra queries are). */
export const MAX_QUERY_CHARS = 300;

/** A query of the question or the user as the run sends it: trimmed and cut at MAX_QUERY_CHARS. */
export function sentQuery(query: string): string {
  return query.trim().slice(0, MAX_QUERY_CHARS);
}

/**
 * How much the question's own result list counts in fusion against another query's (see queryWeight): a planner,
 * LLM or not, may word the search worse than the user did; with it, the question's tenth hit still outranks
 * another query's first. Swept on the tune parts (first 300 of each, quick, no model; every gold page read /
 * answer in report / in the first sentence, HotpotQA, 2Wiki, MuSiQue): 1.5: 266/241/144, 270/166/133, 37/27/12;
 * 3: 268/242/141, 268/166/133, 38/26/12; 6: 264/240/140, 261/165/130, 35/22/12. Flat up to 3; above it the
 * run reads fewer gold pages of every set (the names' pages lose their place to the question's lower hits).
 */
const QUESTION_WEIGHT = 3;

/**
 * How much a query's hits count when the round's result lists are fused: the question's own words
 * QUESTION_WEIGHT times, counter-evidence queries half (they look for what disagrees, not for the answer),
 * every other query once.
 */
export function queryWeight(dimension: string): number {
  if (dimension === QUESTION_DIMENSION) return QUESTION_WEIGHT;
  return dimension === 'counter_evidence' ? 0.5 : 1;
}

/**
 * The least a query counts in fusion when every word of it is already in the question. Swept on the multihop tune
 * parts (first 300 of each): 0.1, 0.25 and 0.5 read the same gold pages and give the same answers (without a model
 * the queries beside the question are names, whose words are new).
 */
const LEAST_NOVELTY = 0.25;

/**
 * A query's weight in the fusion of a round's lists: its dimension's weight (queryWeight) times the share
 * of its words the question does not hold (at least a quarter). A query made of the question's own words
 * finds what the question's search finds, ranked by fewer of them: its agreeing with it is no new evidence
 * of relevance, so it adds pages after the question's own rather than reordering them. A query with new
 * words (an LLM's rewording, a name read in a page) counts in full.
 */
export function fusionWeight(query: PlannedQuery, question: string): number {
  const weight = queryWeight(query.dimension);
  if (query.dimension === QUESTION_DIMENSION) return weight;
  return weight * Math.max(LEAST_NOVELTY, novelShare(query.query, question));
}

/** The share of a query's words the question does not hold (0 for a query of none but the question's words). */
export function novelShare(query: string, question: string): number {
  const own = termSet(question);
  const terms = [...termSet(query)];
  return terms.length === 0 ? 0 : terms.filter((t) => !own.has(t)).length / terms.length;
}

/**
 * Round 1's queries: the question verbatim, the user's extra queries, the names the question holds (before any
 * plan's queries: a model's plan adds to them, never takes their slots, and a model that plans badly searches
 * nothing of the question), the plan's queries and the plan's counter-evidence queries.
 */
export function firstRoundQueries(plan: Plan, extra: readonly string[]): PlannedQuery[] {
  return dedupeQueries([
    { query: sentQuery(plan.query), dimension: QUESTION_DIMENSION },
    ...extra.map((q) => ({ query: sentQuery(q), dimension: 'user' })),
    ...questionNames(plan.query, plan.language).map((name) => ({ query: name, dimension: 'entity' })),
    ...plan.search_queries.map((q) => ({ query: q.query.trim(), dimension: q.dimension })),
    ...plan.counter_evidence_queries.map((q) => ({ query: q.trim(), dimension: 'counter_evidence' })),
  ]);
}
