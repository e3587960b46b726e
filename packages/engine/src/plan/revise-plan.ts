import type { Plan } from '@research/core';

/** A reviewer's change to a plan (PUT /v1/research/{id}/plan): a list given replaces the plan's, one left out stays. */
export interface PlanRevision {
  /** Every query the plan sends beside the question, the user's queries and the question's names. */
  search_queries?: readonly string[];
  sub_questions?: readonly string[];
}

/** The dimension a reviewer's new query is searched under: the user's, as a run's extra queries are. */
const REVIEWER_DIMENSION = 'user';

/** The queries a plan adds to the question's own: its search queries, then its counter-evidence queries. */
export function reviewedQueries(plan: Plan): string[] {
  return [...plan.search_queries.map((q) => q.query), ...plan.counter_evidence_queries];
}

/**
 * The plan with a reviewer's queries and sub-questions. A query the plan held keeps its dimension (a
 * counter-evidence query stays one); a new one is the user's; blank ones are dropped. Every other field of the
 * plan is kept.
 */
export function revisePlan(plan: Plan, revision: PlanRevision): Plan {
  const revised: Plan = { ...plan };
  if (revision.search_queries) {
    const dimensions = new Map(plan.search_queries.map((q) => [q.query.trim(), q.dimension]));
    const counter = new Set(plan.counter_evidence_queries.map((q) => q.trim()));
    const queries = revision.search_queries.map((q) => q.trim()).filter((q) => q.length > 0);
    revised.search_queries = queries
      .filter((q) => !counter.has(q))
      .map((query) => ({ query, dimension: dimensions.get(query) ?? REVIEWER_DIMENSION }));
    revised.counter_evidence_queries = queries.filter((q) => counter.has(q));
  }
  if (revision.sub_questions)
    revised.sub_questions = revision.sub_questions.map((q) => q.trim()).filter((q) => q.length > 0);
  return revised;
}
