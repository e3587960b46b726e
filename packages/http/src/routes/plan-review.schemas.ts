import { z } from 'zod';
import { researchId, runState } from './research.schemas';
import { queryListSchema } from './query-list.schemas';

/** PUT /v1/research/{id}/plan: the lists given replace the plan's; one left out stays. */
export const editPlanBodySchema = z
  .object({
    search_queries: queryListSchema()
      .optional()
      .meta({
        description:
          "The queries the plan sends beside the question, the run's extra queries and the question's names: the plan's `search_queries` and `counter_evidence_queries` together (at most 20, each 1 to 500 characters). A query the plan held keeps its dimension; a new one is searched as the user's.",
        example: ['remote work productivity meta-analysis'],
      }),
    sub_questions: queryListSchema()
      .optional()
      .meta({
        description: "The plan's sub-questions (at most 20, each 1 to 500 characters).",
        example: ['Which studies measure productivity at home?'],
      }),
  })
  .meta({ id: 'EditPlanRequest' });
export type EditPlanBody = z.output<typeof editPlanBodySchema>;

export const approveResponseSchema = z
  .object({
    research_id: researchId,
    status: z.literal('approved'),
    state: runState.meta({ description: 'The state the run moved on to: its next step’s.' }),
  })
  .meta({
    id: 'ApproveResearchResponse',
    example: { research_id: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61', status: 'approved', state: 'searching' },
  });
export type ApproveResponse = z.infer<typeof approveResponseSchema>;
