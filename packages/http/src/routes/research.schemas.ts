import { z } from 'zod';
import { DEPTHS, RUN_STATES, isUuid } from '@research/core';
import { boundedText, integerParam } from '../validation';
import { isoTimestamp } from './common.schemas';
import { queryListSchema } from './query-list.schemas';
import { refuseOverlappingDomains, sourceControlFields } from './source-controls.schemas';
import { maxLlmTokensField, runCostSchema } from './run-cost.schemas';
import { reviewPlanShownField, runCollectionFields, runCollectionsSchema } from './run-collections.schemas';

// ---- Requests ------------------------------------------------------------------------------------

/** A run's id given as a field (a follow-up's parent, the list's parent filter): a UUID, else a 422. */
const parentIdParam = z.string().refine(isUuid, 'must be a research run id (a UUID)').meta({ format: 'uuid' });

/** POST /v1/research (SPEC 4.2). Unknown fields are ignored. */
export const createResearchBodySchema = z
  .object({
    query: boundedText(1, 2000, { notBlank: true }).meta({
      description: 'The research question (1 to 2000 characters, not blank).',
      example: 'Wie wirkt sich Homeoffice auf die Produktivität aus?',
    }),
    language: boundedText(1, 64)
      .default('de')
      .meta({ description: 'Language code of the run; not otherwise validated.', example: 'de' }),
    // Any string is accepted here; one outside DEPTHS is answered with SPEC 4.2's 400 by the service.
    depth: z
      .string()
      .default('normal')
      .meta({ enum: [...DEPTHS], description: 'Resource budget of the run.', example: 'normal' }),
    extra_queries: queryListSchema()
      .nullable()
      .default(null)
      .meta({
        description: 'Extra search queries added to the pipeline (at most 20).',
        example: ['remote work productivity study'],
      }),
    callback_url: boundedText(1, 2048).nullable().default(null).meta({
      description:
        'Webhook: an http(s) URL POSTed a signed `research.completed`, `research.failed` or `research.cancelled` event when the run ends. Refused (422) when WEBHOOK_SECRET is not configured or the address is one the crawler may not reach.',
      example: 'https://example.org/hooks/research',
    }),
    ...sourceControlFields,
    max_llm_tokens: maxLlmTokensField,
    review_plan: z.boolean().default(false).meta({
      description:
        'Extension: stop after planning in state `awaiting_review` until the plan is approved (POST /v1/research/{id}/approve); it may be edited meanwhile (PUT /v1/research/{id}/plan).',
      example: false,
    }),
    parent_id: parentIdParam.nullable().default(null).meta({
      description:
        "Extension: ask a follow-up of this run (one the caller may read, completed or stopped). The follow-up starts from the parent's sources, claims and evidence (copied: they are not fetched again and keep their content_sha256, whatever becomes of the parent), then searches for what its own question needs. An unknown, hidden or failed parent is a 422, a parent still running a 409.",
      example: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61',
    }),
    ...runCollectionFields,
  })
  .superRefine(refuseOverlappingDomains)
  .meta({ id: 'CreateResearchRequest' });
export type CreateResearchBody = z.output<typeof createResearchBodySchema>;

/** GET /v1/research query string (CONTRACT 4: limit 1..100, offset >= 0). */
export const listResearchQuerySchema = z.object({
  limit: integerParam({ min: 1, max: 100, default: 10, description: 'Page size (1 to 100).' }),
  // Bounded so the value always fits Postgres's bigint (a larger one would be a 500, not a 422).
  offset: integerParam({ min: 0, max: Number.MAX_SAFE_INTEGER, default: 0, description: 'Items to skip (>= 0).' }),
  parent_id: parentIdParam
    .optional()
    .meta({ description: 'Extension: only the follow-ups of this run (newest first).', format: 'uuid' }),
  q: boundedText(1, 200, { notBlank: true }).optional().meta({
    description:
      'Extension: full-text search over the question and the report\'s summary (words as a search box takes them: "quoted phrase", or, -word), best match first, then newest; 1 to 200 characters.',
    example: 'photosynthesis',
  }),
});
export type ListResearchQuery = z.output<typeof listResearchQuerySchema>;

const deletionPassword = boundedText(0, 256)
  .nullable()
  .optional()
  .meta({ description: 'The deletion-protection password.' });

/** DELETE /v1/research/{id} (SPEC 4.9); the body is optional. */
export const deleteResearchBodySchema = z.object({ password: deletionPassword }).meta({ id: 'DeleteResearchRequest' });
export type DeleteResearchBody = z.output<typeof deleteResearchBodySchema>;

/** PUT /v1/research/{id}/deletion-protection (SPEC 4.10). */
export const setProtectionBodySchema = z
  .object({
    password: boundedText(8, 256).meta({
      description: 'The new protection password (8 to 256 characters).',
      example: 'correct horse battery',
    }),
    current_password: boundedText(0, 256)
      .nullable()
      .optional()
      .meta({ description: 'The current password, when the run is already protected.' }),
  })
  .meta({ id: 'SetDeletionProtectionRequest' });
export type SetProtectionBody = z.output<typeof setProtectionBodySchema>;

/** DELETE /v1/research/{id}/deletion-protection (SPEC 4.11); the body is required, `password` may be missing. */
export const removeProtectionBodySchema = z
  .object({ password: deletionPassword })
  .meta({ id: 'RemoveDeletionProtectionRequest' });
export type RemoveProtectionBody = z.output<typeof removeProtectionBodySchema>;

// ---- Responses -----------------------------------------------------------------------------------

export const researchId = z.string().meta({ format: 'uuid', example: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61' });
const depth = z.enum(DEPTHS).or(z.string());
export const runState = z.enum(RUN_STATES).or(z.string());

export const createResearchResponseSchema = z
  .object({
    research_id: researchId,
    status: z.literal('pending'),
    query: z.string(),
    depth: z.enum(DEPTHS),
    state: z.literal('created'),
  })
  .meta({
    id: 'CreateResearchResponse',
    example: {
      research_id: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61',
      status: 'pending',
      query: 'Wie wirkt sich Homeoffice auf die Produktivität aus?',
      depth: 'normal',
      state: 'created',
    },
  });
export type CreateResearchResponse = z.infer<typeof createResearchResponseSchema>;

/** The fields that name a run, first in both its list item and its status. */
const runIdentity = {
  research_id: researchId,
  query: z.string(),
  depth,
  state: runState,
  created_at: isoTimestamp('Creation time (ISO 8601 UTC).'),
};

/** Extension: the run a follow-up started from. */
const parentIdField = researchId.nullable().meta({
  description: 'Extension: the run this one follows up (POST /v1/research parent_id); null for any other run.',
});

export const researchListItemSchema = z
  .object({
    ...runIdentity,
    source_count: z.number().int(),
    claim_count: z.number().int(),
    is_deletion_protected: z.boolean(),
    parent_id: parentIdField,
  })
  .meta({ id: 'ResearchListItem' });
export type ResearchListItem = z.infer<typeof researchListItemSchema>;

export const researchListResponseSchema = z
  .object({
    total: z.number().int().meta({ description: 'Number of non-hidden runs.' }),
    limit: z.number().int(),
    offset: z.number().int(),
    items: z.array(researchListItemSchema),
  })
  .meta({
    id: 'ResearchListResponse',
    example: {
      total: 1,
      limit: 10,
      offset: 0,
      items: [
        {
          research_id: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61',
          query: 'Wie wirkt sich Homeoffice auf die Produktivität aus?',
          depth: 'normal',
          state: 'completed',
          created_at: '2026-11-21T09:30:00.000Z',
          source_count: 12,
          claim_count: 48,
          is_deletion_protected: false,
          parent_id: null,
        },
      ],
    },
  });
export type ResearchListResponse = z.infer<typeof researchListResponseSchema>;

export const researchStatusResponseSchema = z
  .object({
    ...runIdentity,
    updated_at: isoTimestamp('Last change (ISO 8601 UTC).').nullable(),
    search_count: z.number().int(),
    source_count: z.number().int(),
    claim_count: z.number().int(),
    error: z.string().nullable().meta({ description: 'Why the run failed, when it failed.' }),
    is_completed: z.boolean(),
    is_running: z.boolean(),
    is_deletion_protected: z.boolean(),
    cost: runCostSchema,
    parent_id: parentIdField,
    review_plan: reviewPlanShownField,
    collections: runCollectionsSchema,
  })
  .meta({
    id: 'ResearchStatusResponse',
    example: {
      research_id: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61',
      query: 'Wie wirkt sich Homeoffice auf die Produktivität aus?',
      depth: 'normal',
      state: 'searching',
      created_at: '2026-11-21T09:30:00.000Z',
      updated_at: '2026-11-21T09:30:04.512Z',
      search_count: 20,
      source_count: 0,
      claim_count: 0,
      error: null,
      is_completed: false,
      is_running: true,
      is_deletion_protected: false,
      cost: {
        llm_requests: 1,
        llm_tokens_input: 1_850,
        llm_tokens_output: 420,
        search_queries: 20,
        pages_fetched: 0,
        estimated_cost_usd: 0.000698,
        max_llm_tokens: null,
      },
      parent_id: null,
      review_plan: false,
      collections: null,
    },
  });
export type ResearchStatusResponse = z.infer<typeof researchStatusResponseSchema>;

/** Extension: the hash that GET …/sources/{source_id}/content answers beside the text. */
export const contentSha256Field = z.string().nullable().meta({
  description:
    'Hex SHA-256 of the UTF-8 bytes of the source text its claims were taken from (GET /v1/research/{id}/sources/{source_id}/content); null only for a source stored without one.',
  example: '9f2c4e0b6a1d8f37c5e2b9a04d6f1c83e7a5b2d09c4f6e18a3b7d5c2e9f0a1b4',
});

/** A code point offset into a source's text, null when unknown. */
export const spanOffset = (description: string) => z.number().int().min(0).nullable().meta({ description });

export const sourceSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    title: z.string().nullable(),
    domain: z.string(),
    source_type: z.string().nullable(),
    retrieved_at: isoTimestamp('When the source was fetched (ISO 8601 UTC).'),
    content_sha256: contentSha256Field,
  })
  .meta({ id: 'Source' });

export const sourcesResponseSchema = z
  .object({ research_id: researchId, sources: z.array(sourceSchema), total: z.number().int() })
  .meta({
    id: 'SourcesResponse',
    example: {
      research_id: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61',
      sources: [
        {
          id: 'src-1',
          url: 'https://de.wikipedia.org/wiki/Telearbeit',
          title: 'Telearbeit',
          domain: 'de.wikipedia.org',
          source_type: 'reference',
          retrieved_at: '2026-11-21T09:31:10.000Z',
          content_sha256: '9f2c4e0b6a1d8f37c5e2b9a04d6f1c83e7a5b2d09c4f6e18a3b7d5c2e9f0a1b4',
        },
      ],
      total: 1,
    },
  });
export type SourcesResponse = z.infer<typeof sourcesResponseSchema>;

export const claimSchema = z
  .object({
    id: z.string(),
    research_run_id: researchId,
    source_id: z.string(),
    claim_text: z.string(),
    evidence_span: z.string(),
    claim_type: z.string().meta({ example: 'fact' }),
    confidence: z.number().min(0).max(1),
    span_start: spanOffset(
      "Extension: where evidence_span starts in the source's text, in Unicode code points from 0 (text[span_start:span_end] is evidence_span); null for a claim stored before spans were recorded whose span is not verbatim in its source.",
    ),
    span_end: spanOffset('Extension: where evidence_span ends in the source text (code points, exclusive).'),
  })
  .meta({ id: 'Claim' });

export const claimsResponseSchema = z
  .object({ research_id: researchId, claims: z.array(claimSchema), total: z.number().int() })
  .meta({ id: 'ClaimsResponse' });
export type ClaimsResponse = z.infer<typeof claimsResponseSchema>;

export const evidenceScoreSchema = z
  .object({
    claim_id: z.string(),
    research_run_id: researchId,
    evidence_type: z.string().meta({ example: 'secondary_report' }),
    source_independence_score: z.number(),
    primary_source_proximity: z.number(),
    cross_source_support: z.number(),
    contradiction_level: z.number(),
    evidence_directness: z.number(),
    date_relevance_score: z.number(),
  })
  .meta({ id: 'EvidenceScore' });

export const evidenceResponseSchema = z
  .object({ research_id: researchId, evidence: z.array(evidenceScoreSchema), total: z.number().int() })
  .meta({ id: 'EvidenceResponse' });
export type EvidenceResponse = z.infer<typeof evidenceResponseSchema>;

export const planResponseSchema = z
  .object({
    research_id: researchId,
    plan: z.record(z.string(), z.unknown()).nullable().meta({ description: "The planner's validated strategy." }),
    available: z.boolean(),
  })
  .meta({ id: 'PlanResponse' });
export type PlanResponse = z.infer<typeof planResponseSchema>;

export const findingResponseSchema = z
  .object({ text: z.string(), confidence: z.number(), source_ids: z.array(z.string()) })
  .meta({ id: 'Finding' });

export const reportResponseSchema = z
  .object({
    research_id: researchId,
    query: z.string(),
    summary: z.string(),
    findings: z.array(findingResponseSchema),
    disagreements: z.array(z.record(z.string(), z.unknown())),
    uncertainties: z.array(z.string()),
    source_statistics: z.record(z.string(), z.unknown()),
    methodology: z.string(),
    generated_at: z.string().meta({ description: 'ISO 8601 UTC, or empty while no report exists.' }),
  })
  .meta({
    id: 'ReportResponse',
    example: {
      research_id: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61',
      query: 'Wie wirkt sich Homeoffice auf die Produktivität aus?',
      summary: 'Studien berichten überwiegend von gleicher oder höherer Produktivität …',
      findings: [{ text: 'Produktivität steigt in mehreren Studien leicht.', confidence: 0.72, source_ids: ['src-1'] }],
      disagreements: [],
      uncertainties: ['Wenige Langzeitstudien.'],
      source_statistics: { total_sources: 12, primary_sources: 3, secondary_sources: 9 },
      methodology: 'Plan, Suche, Abruf, Extraktion, Vergleich, Synthese.',
      generated_at: '2026-11-21T09:40:00.000Z',
    },
  });
export type ReportResponse = z.infer<typeof reportResponseSchema>;

export const hideResponseSchema = z
  .object({ status: z.literal('hidden'), research_id: researchId })
  .meta({ id: 'HideResearchResponse' });
export type HideResponse = z.infer<typeof hideResponseSchema>;

export const protectionResponseSchema = z
  .object({ is_deletion_protected: z.boolean() })
  .meta({ id: 'DeletionProtectionResponse', example: { is_deletion_protected: true } });
export type ProtectionResponse = z.infer<typeof protectionResponseSchema>;

export const protectionRemovedResponseSchema = z
  .object({ is_deletion_protected: z.boolean() })
  .meta({ id: 'DeletionProtectionRemovedResponse', example: { is_deletion_protected: false } });
