import { z } from 'zod';

export const healthResponseSchema = z
  .object({ status: z.literal('ok'), version: z.string() })
  .meta({ id: 'HealthResponse', example: { status: 'ok', version: '0.1.0' } });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const readinessResponseSchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    database: z.string().meta({ description: '`ok` or `error:<type>`.' }),
    queue: z.string().meta({ description: '`ok` or `error`.' }),
    search: z.string().meta({
      description:
        "The search provider's API (SEARCH_PROVIDER): `ok`, `error:<HTTP status>` or `error:<type>` (`ConnectionError` without network: set `SEARCH_PROVIDER=local` to research a folder of files).",
    }),
    llm: z
      .string()
      .meta({ description: '`ok`, `disabled` (no LLM configured), `error:<HTTP status>` or `error:<type>`.' }),
    llm_model: z.string().optional().meta({ description: 'Present when ready and an LLM is configured.' }),
  })
  .meta({
    id: 'ReadinessResponse',
    example: { status: 'ready', database: 'ok', queue: 'ok', search: 'ok', llm: 'ok', llm_model: 'llama3.1:8b' },
  });
export type ReadinessResponse = z.infer<typeof readinessResponseSchema>;

const unavailable = z.object({ available: z.literal(false) });

export const providersResponseSchema = z
  .object({
    llm: z.union([
      z.object({ available: z.literal(true), model: z.string(), max_concurrency: z.number().int() }),
      unavailable,
    ]),
    vision: z.union([z.object({ available: z.literal(true), model: z.string() }), unavailable]),
    audio: z.union([z.object({ available: z.literal(true), model: z.string() }), unavailable]),
  })
  .meta({
    id: 'ProvidersResponse',
    example: {
      llm: { available: true, model: 'llama3.1:8b', max_concurrency: 4 },
      vision: { available: false },
      audio: { available: false },
    },
  });
export type ProvidersResponse = z.infer<typeof providersResponseSchema>;
