import { z } from 'zod';
import { MAX_CLAIMS_PER_RUN, MAX_CLAIMS_PER_SOURCE } from '@research/core';
import { boundedText, integerParam } from '../validation';
import { claimSchema, evidenceScoreSchema, reportResponseSchema } from './research.schemas';
import { isoTimestamp } from './common.schemas';

const researchId = z.string().meta({ format: 'uuid', example: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61' });

/**
 * A step that asked the LLM and used the extractive engine instead (the LLM failed after its retries,
 * its answer stayed invalid after the repair retry, or the request budget was spent).
 */
export const fallbackSchema = z
  .object({
    step: z.enum(['plan', 'analyze', 'synthesize']),
    reason: z.enum(['budget', 'context', 'http', 'timeout', 'network', 'invalid', 'aborted', 'tokens']).meta({
      description:
        "`http` server error, `timeout`, `network`, `invalid` answer, `budget` of LLM requests spent, `context` prompt too large, `tokens`: the run's max_llm_tokens reached.",
    }),
    count: z.number().int().meta({ description: 'LLM calls that fell back (claims: passages).' }),
  })
  .meta({ id: 'EngineFallback', example: { step: 'analyze', reason: 'http', count: 2 } });
export type FallbackResponse = z.infer<typeof fallbackSchema>;

export const fallbacksField = z
  .array(fallbackSchema)
  .meta({ description: 'Steps that fell back from the LLM to the extractive engine; empty when none did.' });

/** A run id in the path of the mounted run routes (`run_id`); malformed answers 404 like unknown. */
export const runIdPathSchema = z.object({
  run_id: z.string().meta({
    format: 'uuid',
    description: 'The research_id of the run',
    example: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61',
  }),
});

/**
 * POST /research/{run_id}/claims: one of the run's sources, given text with the URL it comes from, or
 * only a URL (the page is fetched through the pipeline's crawler and stored as a new source).
 */
export const extractClaimsBodySchema = z
  .object({
    source_id: boundedText(1, 200).optional().meta({ description: "One of the run's sources." }),
    text: boundedText(1, 200_000, { notBlank: true })
      .optional()
      .meta({ description: 'Text to extract from (stored as a new source of the run with `url`).' }),
    url: boundedText(1, 2048).optional().meta({
      description:
        'Where `text` comes from (required with `text`); alone, the page to fetch through the crawler (SSRF guard, robots.txt, page cache).',
    }),
    title: boundedText(1, 500)
      .nullable()
      .optional()
      .meta({ description: "Title of the new source (default for a fetched page: the page's own)." }),
    language: boundedText(1, 64)
      .optional()
      .meta({ description: "Language of the text; default the source's or run's." }),
  })
  .superRefine((body, ctx) => {
    if (body.source_id === undefined && body.text === undefined && body.url === undefined) {
      ctx.addIssue({ code: 'custom', path: ['source_id'], message: 'give source_id, text with url, or url' });
    } else if (body.source_id !== undefined && body.text !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['text'], message: 'give either source_id or text, not both' });
    } else if (body.source_id !== undefined && body.url !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'give either source_id or url, not both' });
    } else if (body.text !== undefined && body.url === undefined) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'Required with text' });
    } else if (body.url !== undefined && !/^https?:\/\//i.test(body.url.trim())) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'must be an http or https URL' });
    }
  })
  .meta({
    id: 'ExtractClaimsRequest',
    example: {
      text: 'Eine Studie von 2021 ergab 13 % mehr Produktivität im Homeoffice.',
      url: 'https://example.org/studie',
    },
  });
export type ExtractClaimsBody = z.output<typeof extractClaimsBodySchema>;

export const extractClaimsResponseSchema = z
  .object({
    research_id: researchId,
    source_id: z.string(),
    claims: z.array(claimSchema),
    total: z.number().int(),
    created: z.number().int().meta({ description: 'Claims new to the run (the others were already stored).' }),
    source_created: z.boolean().meta({
      description:
        'Whether a new source was stored (given text, or a fetched page the run did not have; a URL the run already has is re-read from its stored source).',
    }),
    engine: z.enum(['llm', 'extractive', 'mixed']).meta({
      description: 'Which engine read the text: `mixed` when some passages fell back to the extractive engine.',
    }),
    fallbacks: fallbacksField,
    ungrounded_dropped: z.number().int().meta({
      description: 'LLM claims dropped because their evidence span does not occur in the text (nor close to it).',
    }),
    over_limit_dropped: z
      .number()
      .int()
      .meta({
        description: `New claims not stored because the source would hold more than ${MAX_CLAIMS_PER_SOURCE} claims or the run more than ${MAX_CLAIMS_PER_RUN} (the first ones in text order are kept). When none fits, the answer is a 409 and nothing is stored.`,
      }),
  })
  .meta({ id: 'ExtractClaimsResponse' });

/** POST /research/{run_id}/synthesis: the stored report (as /v1 shows it) and how it was written. */
export const synthesisResponseSchema = reportResponseSchema
  .extend({
    engine: z.enum(['llm', 'extractive']).meta({
      description: 'Who worded the summary and findings (the findings themselves always come from the evidence).',
    }),
    fallbacks: fallbacksField,
  })
  .meta({ id: 'SynthesisResponse' });
export type SynthesisResponse = z.infer<typeof synthesisResponseSchema>;
export type ExtractClaimsResponse = z.infer<typeof extractClaimsResponseSchema>;

export const clusterSchema = z
  .object({
    id: z.string(),
    position: z.number().int().meta({ description: '1-based, in the order of the first claim.' }),
    representative_claim_id: z.string(),
    claim_ids: z.array(z.string()),
    size: z.number().int(),
    source_ids: z.array(z.string()),
    independent_groups: z
      .number()
      .int()
      .meta({ description: 'Independent source groups behind the cluster (same domain or copied text = one).' }),
  })
  .meta({ id: 'ClaimCluster' });

export const clustersResponseSchema = z
  .object({
    research_id: researchId,
    clusters: z.array(clusterSchema),
    total: z.number().int(),
    computed_at: isoTimestamp('When the clusters were computed; null before the first clustering.').nullable(),
  })
  .meta({ id: 'ClaimClustersResponse' });
export type ClustersResponse = z.infer<typeof clustersResponseSchema>;

export const clusterClaimsResponseSchema = clustersResponseSchema
  .extend({
    relations: z.number().int().meta({
      description: 'How many claim relations were stored (read them page by page from GET …/claim-relations).',
    }),
  })
  .meta({ id: 'ClusterClaimsResponse' });
export type ClusterClaimsResponse = z.infer<typeof clusterClaimsResponseSchema>;

export const relationSchema = z
  .object({
    claim_id: z.string(),
    related_claim_id: z.string(),
    relation: z.enum(['supports', 'refines', 'contradicts']).or(z.string()).meta({
      description:
        '`supports` (same proposition), `refines` (claim_id adds detail to related_claim_id), `contradicts`.',
    }),
    contradiction_kind: z.string().nullable(),
    detail: z.string().nullable(),
  })
  .meta({ id: 'ClaimRelation' });

/** GET /research/{run_id}/claim-relations query string: a page, as GET /v1/research. */
export const listRelationsQuerySchema = z.object({
  limit: integerParam({ min: 1, max: 100, default: 100, description: 'Page size (1 to 100).' }),
  // Bounded so the value always fits Postgres's bigint (a larger one would be a 500, not a 422).
  offset: integerParam({ min: 0, max: Number.MAX_SAFE_INTEGER, default: 0, description: 'Relations to skip (>= 0).' }),
});
export type ListRelationsQuery = z.output<typeof listRelationsQuerySchema>;

export const relationsResponseSchema = z
  .object({
    research_id: researchId,
    relations: z.array(relationSchema).meta({ description: 'One page of relations, in the order they were found.' }),
    total: z.number().int().meta({ description: 'All relations the run has stored.' }),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: 'ClaimRelationsResponse' });
export type RelationsResponse = z.infer<typeof relationsResponseSchema>;

export { evidenceScoreSchema };
