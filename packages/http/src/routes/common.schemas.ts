import { z } from 'zod';

/** Every error body (SPEC 7). */
export const errorResponseSchema = z
  .object({ detail: z.string() })
  .meta({ id: 'ErrorResponse', example: { detail: 'Research run 0d9c1a52-0000-4000-8000-000000000000 not found' } });

/** A run id in the path; a malformed one is answered like an unknown one (404), never a 422. */
export const runIdParamsSchema = z.object({
  id: z.string().meta({
    format: 'uuid',
    description: 'The research_id of the run',
    example: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61',
  }),
});

/** An ISO 8601 UTC timestamp field of a response. */
export const isoTimestamp = (description: string) =>
  z.string().meta({ format: 'date-time', description, example: '2026-11-21T09:30:00.000Z' });
