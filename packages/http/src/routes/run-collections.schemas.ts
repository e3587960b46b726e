import { z } from 'zod';
import { isUuid, MAX_RUN_COLLECTIONS } from '@research/core';

// POST /v1/research's `collection_ids` (the workflow issue): the collections a run searches beside the web, or
// instead of it when the body also says `include_domains: []`.

/** The field, spread into the create body's object. */
export const runCollectionFields = {
  collection_ids: z
    .array(z.string({ error: 'must be a list of collection ids' }).refine(isUuid, 'must be a list of collection ids'))
    .max(MAX_RUN_COLLECTIONS, `must have at most ${MAX_RUN_COLLECTIONS} items`)
    .nullable()
    .optional()
    .transform((ids) => ids ?? [])
    .meta({
      description: `Collections the run searches beside the web (at most ${MAX_RUN_COLLECTIONS}, each one the caller may read; 422 otherwise). With \`include_domains: []\` as well, instead of the web: the run reads only their documents.`,
      example: ['5b1e0c8e-2f7a-4d51-9a43-0c6f1d2e3a4b'],
    }),
};

/**
 * Whether a create body asks for its collections instead of the web: `collection_ids` with an explicitly empty
 * `include_domains` (`[]`). Without collection_ids, an empty include_domains means no restriction, as before.
 */
export function collectionsOnly(body: unknown): boolean {
  if (!body || typeof body !== 'object') return false;
  const { include_domains: hosts, collection_ids: ids } = body as Record<string, unknown>;
  return Array.isArray(hosts) && hosts.length === 0 && Array.isArray(ids) && ids.length > 0;
}

/** A run's collections as its status and manifest show them (core's RunCollections), or null. */
export const runCollectionsSchema = z
  .object({ ids: z.array(z.string()), web: z.boolean() })
  .nullable()
  .meta({
    description:
      'Extension: the collections the run searches (`collection_ids`) and whether it searches the web beside them (false: created with `include_domains: []`), or null for a run created without collections.',
    example: { ids: ['5b1e0c8e-2f7a-4d51-9a43-0c6f1d2e3a4b'], web: true },
  });

/** Whether a run was created with `review_plan: true`, as its status and manifest show it. */
export const reviewPlanShownField = z.boolean().meta({
  description:
    'Extension: the run was created with `review_plan: true` (it stops after planning in `awaiting_review` until approved); false for any other run.',
});
