import { z } from 'zod';
import { isoTimestamp, runIdParamsSchema } from './common.schemas';
import { contentSha256Field } from './research.schemas';
import { runCostSchema } from './run-cost.schemas';
import { reviewPlanShownField, runCollectionsSchema } from './run-collections.schemas';

// GET /v1/research/{id}/sources/{source_id}/content and GET /v1/research/{id}/manifest: what a reader
// needs to check a run's evidence and to audit or repeat the run.

// ---- Requests ------------------------------------------------------------------------------------

/** A source of a run in the path. */
export const sourceContentParamsSchema = runIdParamsSchema.extend({
  source_id: z.string().meta({ description: "The id of one of the run's sources (GET /v1/research/{id}/sources)." }),
});

// ---- Responses -----------------------------------------------------------------------------------

export const sourceContentResponseSchema = z
  .object({
    content_sha256: contentSha256Field,
    text: z.string().meta({
      description:
        "The exact extracted text the claims were taken from: its SHA-256 is content_sha256, and each claim's text[span_start:span_end] (code points) is its evidence_span.",
    }),
  })
  .meta({
    id: 'SourceContentResponse',
    example: {
      content_sha256: '9f2c4e0b6a1d8f37c5e2b9a04d6f1c83e7a5b2d09c4f6e18a3b7d5c2e9f0a1b4',
      text: 'Telearbeit ist eine Arbeitsform …',
    },
  });
export type SourceContentResponse = z.infer<typeof sourceContentResponseSchema>;

const count = z.number().int().min(0);

const budgetLine = z.object({
  limit: count,
  used: count
    .nullable()
    .meta({ description: 'What the run used; null for a limit per call (max_context_per_llm_call).' }),
});

export const manifestConfigurationSchema = z
  .object({
    search: z.object({ provider: z.string(), timeout_ms: count, max_retries: count }),
    llm: z.object({
      enabled: z.boolean().meta({ description: 'False: the built-in extractive engine ran every step.' }),
      model: z.string().nullable(),
      timeout_ms: count,
      max_concurrency: count,
    }),
    crawler: z.object({
      allow_private_networks: z.boolean(),
      respect_robots: z.boolean(),
      timeout_ms: count,
      cache_ttl_seconds: count,
    }),
  })
  .meta({
    description:
      'The settings of the answering process that shape a run (workers of one deployment share them); no keys, no URLs.',
  });
export type ManifestConfiguration = z.infer<typeof manifestConfigurationSchema>;

export const urlAttemptSchema = z.object({
  at: isoTimestamp(
    "When the URL was fetched or given up (the event's time; the retrieval time for a source without one).",
  ),
  round: count.nullable(),
  url: z.string(),
  outcome: z.enum(['fetched', 'rejected']).meta({ description: "The URL's status: kept as a source, or not." }),
  reason: z.string().nullable().meta({ description: "Why a URL was rejected (the crawler's reason code)." }),
  source_id: z.string().nullable(),
  content_sha256: contentSha256Field,
});
export type UrlAttempt = z.infer<typeof urlAttemptSchema>;

export const runManifestResponseSchema = z
  .object({
    research_id: z.string(),
    query: z.string(),
    language: z.string(),
    depth: z.string(),
    state: z.string(),
    extra_queries: z.array(z.string()).nullable(),
    source_controls: z
      .record(z.string(), z.unknown())
      .nullable()
      .meta({ description: 'The source controls the run was created with (include/exclude domains, …), or null.' }),
    collections: runCollectionsSchema,
    created_at: isoTimestamp('Creation time.'),
    started_at: isoTimestamp('When a worker first picked the run up.').nullable(),
    finished_at: isoTimestamp('When the run ended.').nullable(),
    service: z.object({ version: z.string() }),
    configuration: manifestConfigurationSchema,
    rounds: count.meta({ description: 'Research rounds the run does (1, 2 or 3 by depth).' }),
    budget: z.record(z.string(), budgetLine).meta({
      description:
        'Each depth budget (SPEC 8) with what the run used: queries sent, sources kept, the most pages of one site, bytes downloaded, LLM requests, seconds run.',
    }),
    usage: z.record(z.string(), z.number()).meta({ description: "The run's counters as stored (tokens included)." }),
    cost: runCostSchema,
    engines: z.array(
      z.object({
        step: z.string(),
        round: count,
        mode: z.string().meta({ description: '`llm`, `extractive`, `mixed` or `deterministic`.' }),
        model: z.string().nullable().meta({ description: 'The configured LLM model when a model took part.' }),
      }),
    ),
    fallbacks: z.array(z.object({ step: z.string(), round: count, reason: z.string(), count })),
    queries: z.array(
      z.object({ round: count, query: z.string(), failed: z.boolean().nullable() }).meta({
        description: 'A query sent to the search provider; `failed` is null for runs recorded before query events.',
      }),
    ),
    urls: z.array(urlAttemptSchema),
    parent_id: z.string().nullable().meta({
      description:
        "Extension: the run a follow-up started from (null for any other run, or once that run is purged); the follow-up's `urls` of round 0 are its parent's sources, copied with their hashes, not fetched again.",
    }),
    review_plan: reviewPlanShownField,
  })
  .meta({ id: 'RunManifestResponse' });
export type RunManifestResponse = z.infer<typeof runManifestResponseSchema>;
