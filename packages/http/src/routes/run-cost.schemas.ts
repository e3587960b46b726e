import { z } from 'zod';
import { MAX_LLM_TOKENS_LIMIT } from '@research/core';

// What a run costs: its cap on LLM tokens (a create field) and what it spent (`cost`, in its status and
// manifest). What a run is expected to cost before it is asked is in estimate.schemas.ts.

/** The create field `max_llm_tokens`, spread into the create body's object. */
export const maxLlmTokensField = z
  .number({ error: 'must be an integer' })
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(MAX_LLM_TOKENS_LIMIT, `must be at most ${MAX_LLM_TOKENS_LIMIT}`)
  .nullable()
  .default(null)
  .meta({
    type: 'integer',
    description: `Cap on the run's LLM tokens, prompt and completion together (1 to ${MAX_LLM_TOKENS_LIMIT}). Once reached, no further LLM request starts: the run goes on extractively and its report says the token budget was spent (requests in flight when it is reached may carry the run past it).`,
    example: 50_000,
  });

export const usd = (description: string) =>
  z
    .number()
    .nullable()
    .meta({
      description: `${description} In USD at LLM_PRICE_INPUT_PER_MTOK and LLM_PRICE_OUTPUT_PER_MTOK; null when either is unset.`,
      example: 0.0132,
    });

/** A run's cost so far: in its status (live, as each step commits) and in its manifest. */
export const runCostSchema = z
  .object({
    llm_requests: z.number().int().meta({ description: 'LLM requests sent (every attempt counts).' }),
    llm_tokens_input: z.number().int().meta({ description: 'Prompt tokens the LLM provider reported.' }),
    llm_tokens_output: z.number().int().meta({ description: 'Completion tokens the LLM provider reported.' }),
    search_queries: z.number().int().meta({ description: 'Search queries sent.' }),
    pages_fetched: z.number().int().meta({ description: 'Pages read and kept as sources.' }),
    estimated_cost_usd: usd('The estimated price of the tokens.'),
    max_llm_tokens: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The run's cap on tokens in and out together, null without one." }),
  })
  .meta({
    id: 'RunCost',
    description: 'Extension: what the run spent so far (it grows as each step of the run commits).',
    example: {
      llm_requests: 12,
      llm_tokens_input: 31_200,
      llm_tokens_output: 4_100,
      search_queries: 9,
      pages_fetched: 14,
      estimated_cost_usd: 0.0132,
      max_llm_tokens: null,
    },
  });
export type RunCostResponse = z.infer<typeof runCostSchema>;
