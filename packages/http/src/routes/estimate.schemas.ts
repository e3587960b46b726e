import { z } from 'zod';
import { createResearchBodySchema } from './research.schemas';
import { usd } from './run-cost.schemas';

/** POST /v1/research/estimate: the create body's question, depth and language. Unknown fields are ignored. */
export const estimateBodySchema = z
  .object({
    query: createResearchBodySchema.shape.query,
    language: createResearchBodySchema.shape.language,
    depth: createResearchBodySchema.shape.depth,
  })
  .meta({ id: 'EstimateRequest' });
export type EstimateBody = z.output<typeof estimateBodySchema>;

const expected = (description: string) => z.number().meta({ description });

export const estimateResponseSchema = z
  .object({
    depth: z.string().meta({ example: 'normal' }),
    llm_requests: expected('Expected LLM requests.'),
    llm_tokens_input: expected('Expected prompt tokens.'),
    llm_tokens_output: expected('Expected completion tokens.'),
    estimated_cost_usd: usd('The expected price of those tokens.'),
    search_queries: expected('Expected search queries.'),
    pages_fetched: expected('Expected pages read.'),
    seconds: expected('Expected wall time, from the first step to the report.'),
    based_on_runs: z.number().int().meta({
      description:
        "How many of the service's last completed runs of this depth the figures are the medians of (at most 50); 0: the depth's budget, with `note` saying so.",
    }),
    note: z.string().nullable().meta({ description: 'Why the figures are what they are, when they rest on no run.' }),
  })
  .meta({
    id: 'EstimateResponse',
    example: {
      depth: 'normal',
      llm_requests: 14,
      llm_tokens_input: 36_000,
      llm_tokens_output: 4_800,
      estimated_cost_usd: 0.0156,
      search_queries: 18,
      pages_fetched: 22,
      seconds: 95,
      based_on_runs: 37,
      note: null,
    },
  });
export type EstimateResponse = z.infer<typeof estimateResponseSchema>;
