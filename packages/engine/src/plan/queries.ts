import type { Plan } from '@research/core';

/** A search query with the plan dimension it serves. */
export interface PlannedQuery {
  query: string;
  dimension: string;
}

/** The queries without blank ones and without repeats (compared trimmed, case-insensitively), in order. */
export function dedupeQueries<T extends PlannedQuery>(queries: readonly T[]): T[] {
  const seen = new Set<string>();
  return queries.filter((q) => {
    const key = q.query.trim().toLowerCase();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The user's extra search queries as stored on the run (jsonb), blank ones removed. */
export function userQueries(stored: unknown): string[] {
  return Array.isArray(stored) ? stored.filter((q): q is string => typeof q === 'string' && q.trim() !== '') : [];
}

/** Round 1's queries: the plan's, its counter-evidence queries and the user's extra queries. */
export function firstRoundQueries(plan: Plan, extra: readonly string[]): PlannedQuery[] {
  return dedupeQueries([
    ...plan.search_queries.map((q) => ({ query: q.query.trim(), dimension: q.dimension })),
    ...extra.map((q) => ({ query: q.trim().slice(0, 300), dimension: 'user' })),
    ...plan.counter_evidence_queries.map((q) => ({ query: q.trim(), dimension: 'counter_evidence' })),
  ]);
}
