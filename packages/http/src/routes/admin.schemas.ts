import { z } from 'zod';
import { isoTimestamp } from './common.schemas';

const researchId = z.string().meta({ format: 'uuid', example: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61' });

export const hiddenRunSchema = z
  .object({
    research_id: researchId,
    query: z.string(),
    hidden_at: isoTimestamp('When the run was soft-deleted (ISO 8601 UTC).'),
    is_deletion_protected: z.boolean(),
  })
  .meta({ id: 'HiddenResearchRun' });
export type HiddenRun = z.infer<typeof hiddenRunSchema>;

/** GET /v1/admin/research/deleted (SPEC 4.12): newest hidden first. */
export const hiddenRunsResponseSchema = z.array(hiddenRunSchema).meta({
  id: 'HiddenResearchRuns',
  example: [
    {
      research_id: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61',
      query: 'Wie wirkt sich Homeoffice auf die Produktivität aus?',
      hidden_at: '2026-11-21T10:00:00.000Z',
      is_deletion_protected: false,
    },
  ],
});
export type HiddenRunsResponse = z.infer<typeof hiddenRunsResponseSchema>;

/** DELETE /v1/admin/research/{id} (SPEC 4.13). */
export const purgeResponseSchema = z
  .object({ status: z.literal('purged'), research_id: researchId })
  .meta({ id: 'PurgeResearchResponse' });
export type PurgeResponse = z.infer<typeof purgeResponseSchema>;
