import type { Depth, ResearchRequest } from '../api/types';

/** The Ask form as typed. */
export interface AskFields {
  query: string;
  depth: Depth;
  language: string;
  includeDomains: string;
  excludeDomains: string;
  /** `YYYY-MM-DD` from the date input, or empty. */
  publishedAfter: string;
  /** Stop after planning until the plan is approved (review_plan). */
  reviewPlan?: boolean;
  /** The collections ticked, searched beside the web. */
  collectionIds?: string[];
  /** Search the ticked collections instead of the web (sent as `include_domains: []`). */
  collectionsOnly?: boolean;
  /** The cap on the run's LLM tokens as typed in the number input (a number's text, or empty). */
  maxLlmTokens?: string;
}

/** A list of hosts as typed: separated by commas, spaces or new lines. */
export function splitDomains(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/**
 * The POST /v1/research body for what was typed: texts trimmed, empty optional fields left out. Nothing else is
 * judged here; the API does that and its 422 names the field.
 */
export function researchRequestOf(fields: AskFields): ResearchRequest {
  const request: ResearchRequest = { query: fields.query.trim(), depth: fields.depth };
  const language = fields.language.trim();
  if (language) request.language = language;
  const include = splitDomains(fields.includeDomains);
  if (include.length > 0) request.include_domains = include;
  const exclude = splitDomains(fields.excludeDomains);
  if (exclude.length > 0) request.exclude_domains = exclude;
  const publishedAfter = fields.publishedAfter.trim();
  if (publishedAfter) request.published_after = publishedAfter;
  if (fields.reviewPlan) request.review_plan = true;
  if (fields.collectionIds?.length) {
    request.collection_ids = fields.collectionIds;
    // With collections, an empty include_domains says "no web host": the run reads only the collections.
    if (fields.collectionsOnly) request.include_domains = [];
  }
  // A number input's value is a number's text or empty; a cap out of range (0, 1.5) is the API's to refuse.
  const maxLlmTokens = fields.maxLlmTokens?.trim();
  if (maxLlmTokens) request.max_llm_tokens = Number(maxLlmTokens);
  return request;
}
