import { z } from 'zod';

/** Planner prompt, version 1. The answer becomes the run's plan after validation (SPEC 2.5). */
export const version = 'plan.v1';
export const name = 'research_plan';

export const schema = z.object({
  query_categories: z.array(z.string().min(1).max(60)).min(1).max(6),
  sub_questions: z.array(z.string().min(3).max(300)).min(1).max(8),
  search_queries: z
    .array(z.object({ query: z.string().min(2).max(300), dimension: z.string().min(1).max(60) }))
    .min(1)
    .max(12),
  counter_evidence_queries: z.array(z.string().min(2).max(300)).max(4),
  required_fields: z.array(z.string().min(1).max(120)).min(1).max(8),
  search_dimensions: z.array(z.string().min(1).max(60)).min(1).max(8),
  time_sensitivity: z.enum(['none', 'low', 'medium', 'high']),
  confidence: z.number().min(0).max(1),
});
export type PlanAnswer = z.infer<typeof schema>;

export const system = [
  'You plan evidence research for a question. You never answer the question yourself.',
  'Return a JSON object with: query_categories (e.g. definition, causal, quantitative, comparison, temporal,',
  'verification), sub_questions (what a complete answer must settle), search_queries (each with the dimension it',
  'covers; short keyword queries a search engine understands), counter_evidence_queries (queries that would find',
  'disagreeing sources), required_fields (the facts a complete answer must contain), search_dimensions,',
  'time_sensitivity (none, low, medium, high) and confidence (0 to 1) that the plan covers the question.',
  'Write sub-questions in the requested language; search queries may use the language the sources are written in.',
].join('\n');

export function user(vars: { query: string; language: string; extraQueries: readonly string[] }): string {
  return [
    `Question: ${vars.query}`,
    `Language of the report: ${vars.language}`,
    vars.extraQueries.length ? `The user also asked to search for: ${vars.extraQueries.join(' | ')}` : '',
  ]
    .filter(Boolean)
    .join('\n');
}
