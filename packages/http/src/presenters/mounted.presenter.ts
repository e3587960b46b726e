import type { ClaimClusterRow, ClaimRelationRow } from '@research/database';
import type { BatchItem, FetchedDocument, UrlValidation } from '@research/runs';
import { presentRunRows } from './research.presenter';
import type { CrawledDocument, CrawlerBatchResponse, ValidateUrlResponse } from '../routes/crawler.schemas';
import type { ClustersResponse, RelationsResponse } from '../routes/run-analysis.schemas';

/** A fetched page as the crawler routes show it: extracted text (cut at `maxChars`) and metadata, never raw bytes. */
export function presentDocument(document: FetchedDocument, maxChars: number): CrawledDocument {
  const chars = [...document.content];
  return {
    url: document.url,
    requested_url: document.requestedUrl,
    title: document.title,
    byline: document.byline,
    site_name: document.siteName,
    language: document.language,
    published_at: document.publishedAt,
    excerpt: document.excerpt,
    domain: document.domain,
    source_type: document.sourceType,
    content_kind: document.kind,
    content: chars.length > maxChars ? chars.slice(0, maxChars).join('') : document.content,
    content_length: chars.length,
    truncated: chars.length > maxChars,
    retrieved_at: document.retrievedAt,
    bytes: document.bytes,
    from_cache: document.fromCache,
  };
}

/** Every URL of a batch with its document or its error, in the order asked. */
export function presentBatch(items: BatchItem[], maxChars: number): CrawlerBatchResponse {
  const results = items.map((item) =>
    item.ok
      ? { url: item.url, ok: true, document: presentDocument(item.document, maxChars), error: null }
      : { url: item.url, ok: false, document: null, error: item.error },
  );
  const succeeded = results.filter((r) => r.ok).length;
  return { results, total: results.length, succeeded, failed: results.length - succeeded };
}

export function presentValidation(url: string, validation: UrlValidation): ValidateUrlResponse {
  return {
    url,
    normalized_url: validation.normalized_url,
    allowed: validation.allowed,
    reason: validation.reason ?? null,
  };
}

export function presentClusters(runId: string, clusters: ClaimClusterRow[]): ClustersResponse {
  const computed = clusters.length ? clusters[0]!.created_at : null;
  return {
    ...presentRunRows(runId, 'clusters', clusters, (c) => ({
      id: c.id,
      position: c.position,
      representative_claim_id: c.representative_claim_id,
      claim_ids: c.claim_ids,
      size: c.claim_ids.length,
      source_ids: c.source_ids,
      independent_groups: c.independent_groups,
    })),
    computed_at: computed ? new Date(computed).toISOString() : null,
  };
}

/** One page of a run's claim relations; `total` counts them all. */
export function presentRelations(
  runId: string,
  relations: ClaimRelationRow[],
  total: number,
  page: { limit: number; offset: number },
): RelationsResponse {
  return {
    research_id: runId,
    relations: relations.map((r) => ({
      claim_id: r.claim_id,
      related_claim_id: r.related_claim_id,
      relation: r.relation,
      contradiction_kind: r.contradiction_kind,
      detail: r.detail,
    })),
    total,
    limit: page.limit,
    offset: page.offset,
  };
}
