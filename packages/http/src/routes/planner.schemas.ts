import { z } from 'zod';
import { DEPTHS } from '@research/core';
import { boundedText } from '../validation';
import { fallbacksField } from './run-analysis.schemas';

/** POST /research/planner. */
export const plannerBodySchema = z
  .object({
    query: boundedText(1, 2000, { notBlank: true }).meta({
      description: 'The research question (1 to 2000 characters).',
      example: 'Wie wirkt sich Homeoffice auf die Produktivität aus?',
    }),
    // Any string passes here; one outside DEPTHS gets POST /v1/research's 400.
    depth: z
      .string()
      .default('normal')
      .meta({ enum: [...DEPTHS], description: 'Budget of the planner call.', example: 'normal' }),
    language: boundedText(1, 64).default('de').meta({ example: 'de' }),
    extra_queries: z
      .array(boundedText(1, 500))
      .max(20, 'must have at most 20 items')
      .default([])
      .meta({ description: 'Extra search queries the plan includes.' }),
  })
  .meta({ id: 'PlannerRequest' });
export type PlannerBody = z.output<typeof plannerBodySchema>;

export const plannerResponseSchema = z
  .object({
    query: z.string(),
    depth: z.string(),
    language: z.string(),
    plan: z.record(z.string(), z.unknown()).meta({ description: 'The validated plan (SPEC 2.5).' }),
    engine: z.enum(['llm', 'extractive']).meta({ description: 'Which planner wrote the plan.' }),
    fallbacks: fallbacksField,
  })
  .meta({
    id: 'PlannerResponse',
    example: {
      query: 'Wie wirkt sich Homeoffice auf die Produktivität aus?',
      depth: 'normal',
      language: 'de',
      plan: {
        query: 'Wie wirkt sich Homeoffice auf die Produktivität aus?',
        language: 'de',
        query_categories: ['causal'],
        sub_questions: ['Welche Studien messen Produktivität im Homeoffice?'],
        search_queries: [{ query: 'Homeoffice Produktivität Studie', dimension: 'evidence' }],
        counter_evidence_queries: ['Homeoffice Produktivität Rückgang'],
        required_fields: ['effect_size'],
        search_dimensions: ['evidence'],
        time_sensitivity: 'medium',
        confidence: 0.7,
      },
      engine: 'extractive',
      fallbacks: [],
    },
  });
export type PlannerResponse = z.infer<typeof plannerResponseSchema>;
