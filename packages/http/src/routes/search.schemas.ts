import { z } from 'zod';
import { SEARCH_PROVIDER_NAMES } from '@research/runs';
import { boundedText } from '../validation';

/** POST /search. */
export const searchBodySchema = z
  .object({
    query: boundedText(1, 500, { notBlank: true }).meta({
      description: 'The search query (1 to 500 characters).',
      example: 'Homeoffice Produktivität Studie',
    }),
    provider: z
      .enum(SEARCH_PROVIDER_NAMES, { error: `must be one of ${SEARCH_PROVIDER_NAMES.join(', ')}` })
      .optional()
      .meta({ description: 'A configured provider; default SEARCH_PROVIDER.', example: 'wikipedia' }),
    language: boundedText(1, 64).default('de').meta({ description: 'Language of the results.', example: 'de' }),
    max_results: z
      .number()
      .int('must be an integer')
      .min(1, 'must be at least 1')
      .max(20, 'must be at most 20')
      .default(10)
      .meta({ description: 'Results wanted (1 to 20).', example: 5 }),
  })
  .meta({ id: 'SearchRequest' });
export type SearchBody = z.output<typeof searchBodySchema>;

export const searchHitSchema = z
  .object({
    url: z.string(),
    title: z.string().nullable(),
    snippet: z.string().nullable(),
    published_at: z.string().nullable(),
    provider: z.string(),
    rank: z.number().int(),
  })
  .meta({ id: 'SearchHit' });

export const searchResponseSchema = z
  .object({
    query: z.string(),
    provider: z.string(),
    language: z.string(),
    results: z.array(searchHitSchema),
    total: z.number().int(),
  })
  .meta({
    id: 'SearchResponse',
    example: {
      query: 'Homeoffice Produktivität Studie',
      provider: 'wikipedia',
      language: 'de',
      results: [
        {
          url: 'https://de.wikipedia.org/wiki/Telearbeit',
          title: 'Telearbeit',
          snippet: 'Telearbeit ist eine Arbeitsform, bei der …',
          published_at: '2026-10-02T08:11:00Z',
          provider: 'wikipedia',
          rank: 1,
        },
      ],
      total: 1,
    },
  });
export type SearchResponse = z.infer<typeof searchResponseSchema>;
