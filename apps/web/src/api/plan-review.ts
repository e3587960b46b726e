import { runPath, type ApiClient } from './client';

// Plan review (docs/api.md, "Plan review"): a run created with review_plan waits in `awaiting_review` with its
// plan; the page shows the plan's queries and sub-questions, saves edits and approves it.

/** The parts of a stored plan the review shows and edits. */
export interface ReviewedPlan {
  search_queries: { query: string; dimension: string }[];
  counter_evidence_queries: string[];
  sub_questions: string[];
}

/** GET /v1/research/{id}/plan and PUT's answer. */
export interface PlanAnswer {
  research_id: string;
  plan: ReviewedPlan | null;
  available: boolean;
}

/** What PUT /v1/research/{id}/plan replaces. */
export interface PlanEdit {
  search_queries: string[];
  sub_questions: string[];
}

export interface ApproveAnswer {
  research_id: string;
  status: 'approved';
  state: string;
}

/** Every query the plan sends beside the question: what `search_queries` of an edit replaces. */
export function reviewedQueries(plan: ReviewedPlan): string[] {
  return [...plan.search_queries.map((q) => q.query), ...plan.counter_evidence_queries];
}

/** GET /v1/research/{id}/plan. */
export function getPlan(api: ApiClient, id: string, signal?: AbortSignal): Promise<PlanAnswer> {
  return api.get<PlanAnswer>(runPath(id, '/plan'), signal);
}

/** PUT /v1/research/{id}/plan. */
export function editPlan(api: ApiClient, id: string, edit: PlanEdit): Promise<PlanAnswer> {
  return api.json<PlanAnswer>('PUT', runPath(id, '/plan'), { body: edit });
}

/** POST /v1/research/{id}/approve. */
export function approvePlan(api: ApiClient, id: string): Promise<ApproveAnswer> {
  return api.json<ApproveAnswer>('POST', runPath(id, '/approve'));
}
