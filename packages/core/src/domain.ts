import { z } from 'zod';

export const DEPTHS = ['quick', 'normal', 'deep'] as const;
export type Depth = (typeof DEPTHS)[number];

export function isDepth(value: unknown): value is Depth {
  return typeof value === 'string' && (DEPTHS as readonly string[]).includes(value);
}

/** Per-run resource budgets of SPEC section 8. Depth selects a budget, never how evidence is judged. */
export interface Budget {
  max_search_queries: number;
  max_sources: number;
  max_pages_per_domain: number;
  max_total_download_bytes: number;
  max_llm_requests: number;
  max_research_duration_seconds: number;
  max_context_per_llm_call: number;
}

export const DEPTH_BUDGETS: Readonly<Record<Depth, Readonly<Budget>>> = Object.freeze({
  quick: Object.freeze({
    max_search_queries: 10,
    max_sources: 15,
    max_pages_per_domain: 2,
    max_total_download_bytes: 500_000,
    max_llm_requests: 15,
    max_research_duration_seconds: 1800,
    max_context_per_llm_call: 16_000,
  }),
  normal: Object.freeze({
    max_search_queries: 20,
    max_sources: 30,
    max_pages_per_domain: 5,
    max_total_download_bytes: 2_000_000,
    max_llm_requests: 30,
    max_research_duration_seconds: 3600,
    max_context_per_llm_call: 24_000,
  }),
  deep: Object.freeze({
    max_search_queries: 40,
    max_sources: 60,
    max_pages_per_domain: 10,
    max_total_download_bytes: 5_000_000,
    max_llm_requests: 60,
    max_research_duration_seconds: 7200,
    max_context_per_llm_call: 32_000,
  }),
});

export const ROUNDS_BY_DEPTH: Readonly<Record<Depth, number>> = Object.freeze({
  quick: 1,
  normal: 2,
  deep: 3,
});

/**
 * Claims one source of a run may hold. The pipeline stores no more, and `POST /research/{id}/claims`
 * adds no more, however often a source is read again (an LLM may find different claims each time).
 */
export const MAX_CLAIMS_PER_SOURCE = 48;
/** Claims one run may hold, whoever adds them: bounds the comparison, the scores and the report. */
export const MAX_CLAIMS_PER_RUN = 2000;

/** How many claims a run holds: in all and per source. */
interface ClaimTally {
  total: number;
  bySource: ReadonlyMap<string, number>;
}

/** The tally of a list of claims. */
export function tallyClaims(claims: ReadonlyArray<{ source_id: string }>): ClaimTally {
  const bySource = new Map<string, number>();
  for (const c of claims) bySource.set(c.source_id, (bySource.get(c.source_id) ?? 0) + 1);
  return { total: claims.length, bySource };
}

/**
 * The new claims that fit under MAX_CLAIMS_PER_SOURCE and MAX_CLAIMS_PER_RUN beside the ones a run
 * already holds, in the order given (extraction orders a source's claims by its text); `dropped` counts
 * the rest.
 */
export function fitClaimCaps<T extends { source_id: string }>(
  drafts: readonly T[],
  held: ClaimTally,
): { kept: T[]; dropped: number } {
  const bySource = new Map(held.bySource);
  let total = held.total;
  const kept: T[] = [];
  for (const d of drafts) {
    const ofSource = bySource.get(d.source_id) ?? 0;
    if (total >= MAX_CLAIMS_PER_RUN || ofSource >= MAX_CLAIMS_PER_SOURCE) continue;
    bySource.set(d.source_id, ofSource + 1);
    total++;
    kept.push(d);
  }
  return { kept, dropped: drafts.length - kept.length };
}

/** Run states: SPEC 3 plus the intermediate states fixed by CONTRACT 4, in pipeline order. */
export const RUN_STATES = [
  'created',
  'planning',
  'awaiting_review',
  'searching',
  'fetching',
  'analyzing',
  'comparing',
  'synthesizing',
  'completed',
  'failed',
  'cancelled',
] as const;
export type RunState = (typeof RUN_STATES)[number];

/**
 * Extension (plan review): the state of a run created with `review_plan: true` once its plan is stored and
 * until a caller approves it. No step works in it and no job holds it; it is not an end (a review ends by
 * approval, cancel or expiry).
 */
export const REVIEW_STATE = 'awaiting_review' satisfies RunState;

export const TERMINAL_STATES: readonly RunState[] = ['completed', 'failed', 'cancelled'];
export const RUNNING_STATES: readonly RunState[] = RUN_STATES.filter((s) => !TERMINAL_STATES.includes(s));

export function isRunning(state: RunState | string): boolean {
  return !(TERMINAL_STATES as readonly string[]).includes(state);
}

/**
 * The states a run is in while a pipeline step works, in order (CONTRACT 4), each round going through them:
 * one step each. The pipeline's registry (packages/pipeline/src/steps/index.ts) names the steps and refuses
 * to start unless it has exactly one step per state here, in this order; the web page keeps a copy.
 */
export const STEP_STATES: readonly RunState[] = Object.freeze(
  RUNNING_STATES.filter((s) => s !== 'created' && s !== REVIEW_STATE),
);

/** Source types the service assigns (SPEC 2.2 leaves the set open; this is the documented set). */
export const SOURCE_TYPES = [
  'academic',
  'government',
  'news',
  'reference',
  'organization',
  'blog',
  'forum',
  'other',
] as const;
export type SourceType = (typeof SOURCE_TYPES)[number];

export const CLAIM_TYPES = ['fact', 'opinion', 'prediction', 'recommendation', 'claim'] as const;
export type ClaimType = (typeof CLAIM_TYPES)[number];

/** What a claim says of the proposition the run's question states or asks about. */
export const CLAIM_STANCES = ['supports', 'refutes', 'neutral'] as const;
export type ClaimStance = (typeof CLAIM_STANCES)[number];

export const EVIDENCE_TYPES = ['primary_report', 'secondary_report'] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

const unit = z.number().min(0).max(1);

/** The planner's validated strategy (SPEC 2.5). Never holds prompts or raw model output. */
export const planSchema = z.object({
  query: z.string(),
  language: z.string(),
  query_categories: z.array(z.string()),
  sub_questions: z.array(z.string()),
  search_queries: z.array(z.object({ query: z.string(), dimension: z.string() })),
  counter_evidence_queries: z.array(z.string()),
  required_fields: z.array(z.string()),
  search_dimensions: z.array(z.string()),
  time_sensitivity: z.enum(['none', 'low', 'medium', 'high']),
  confidence: unit,
});
export type Plan = z.infer<typeof planSchema>;

export const findingSchema = z.object({
  text: z.string(),
  confidence: unit.default(0),
  source_ids: z.array(z.string()).default([]),
});
export type Finding = z.infer<typeof findingSchema>;

export const disagreementSchema = z
  .object({
    claim: z.string().optional(),
    positions: z.array(z.object({ source: z.string(), view: z.string() }).passthrough()).optional(),
  })
  .passthrough();
export type Disagreement = z.infer<typeof disagreementSchema>;

/** The report body a synthesize step produces (SPEC 2.6 without research_id and query). */
export const reportBodySchema = z.object({
  summary: z.string().default(''),
  findings: z
    .array(z.union([z.string().transform((text) => ({ text, confidence: 0, source_ids: [] })), findingSchema]))
    .default([]),
  disagreements: z.array(disagreementSchema).default([]),
  uncertainties: z.array(z.string()).default([]),
  source_statistics: z.record(z.string(), z.unknown()).default({}),
  methodology: z.string().default(''),
  generated_at: z.string().default(''),
});
export type ReportBody = z.infer<typeof reportBodySchema>;

/** A search hit as the search step records it. */
export interface SearchResultDraft {
  query: string;
  url: string;
  title: string | null;
  snippet: string | null;
  published_at: string | null;
  provider: string;
  rank: number;
}

/** A fetched, extracted source as the fetch step records it. */
export interface SourceDraft {
  id: string;
  url: string;
  title: string | null;
  domain: string;
  source_type: SourceType | string | null;
  retrieved_at: string;
  /** Extracted main text: what evidence spans are checked against. */
  content: string;
  published_at: string | null;
  language: string | null;
}

/** An atomic claim extracted from one source. */
export interface ClaimDraft {
  id: string;
  source_id: string;
  claim_text: string;
  evidence_span: string;
  claim_type: ClaimType | string;
  confidence: number;
  /**
   * The claim's stance toward the proposition of the run's question, as the model that extracted it judged
   * (internal: not a SPEC claim field); absent when no model judged it.
   */
  stance?: ClaimStance | null;
}

/** The six scores of a claim's evidence (SPEC 2.4), each in [0, 1]. */
export interface EvidenceScores {
  source_independence_score: number;
  primary_source_proximity: number;
  cross_source_support: number;
  contradiction_level: number;
  evidence_directness: number;
  date_relevance_score: number;
}

/** One evidence score per claim (SPEC 2.4); every score in [0, 1]. */
export interface EvidenceDraft extends EvidenceScores {
  claim_id: string;
  evidence_type: EvidenceType;
}

/** Just the six scores of an evidence record, in SPEC order (a row or draft holds more). */
export function evidenceScoresOf(evidence: EvidenceScores): EvidenceScores {
  return {
    source_independence_score: evidence.source_independence_score,
    primary_source_proximity: evidence.primary_source_proximity,
    cross_source_support: evidence.cross_source_support,
    contradiction_level: evidence.contradiction_level,
    evidence_directness: evidence.evidence_directness,
    date_relevance_score: evidence.date_relevance_score,
  };
}
