import { collectionDocumentUrl } from '@research/core';
import type { CollectionDocumentRow, CollectionSummary } from '@research/database';
import type { CollectionSearchHit } from '@research/runs';
import { codePointLength } from '../validation';
import type {
  CollectionDocumentResponse,
  CollectionDocumentSummary,
  CollectionResponse,
  CollectionSearchResponse,
} from '../routes/collections.schemas';

type ContentType = CollectionDocumentSummary['content_type'];

/** A collection as clients see it (its owner's id is not theirs to learn). */
export function presentCollection(row: CollectionSummary): CollectionResponse {
  return {
    collection_id: row.id,
    name: row.name,
    language: row.language,
    text_search_config: row.text_search_config,
    owner: row.owner_user_id === null ? 'system' : 'user',
    document_count: Number(row.document_count),
    created_at: row.created_at.toISOString(),
  };
}

type DocumentFields = Pick<
  CollectionDocumentRow,
  'id' | 'collection_id' | 'filename' | 'title' | 'content_type' | 'bytes' | 'content_sha256' | 'created_at'
>;

/** A document without its text (lists, the answer to an upload). */
export function presentDocumentSummary(row: DocumentFields & { chars: number }): CollectionDocumentSummary {
  return {
    document_id: row.id,
    collection_id: row.collection_id,
    url: collectionDocumentUrl(row.collection_id, row.id),
    filename: row.filename,
    title: row.title,
    content_type: row.content_type as ContentType,
    bytes: row.bytes,
    content_sha256: row.content_sha256,
    created_at: row.created_at.toISOString(),
    content_length: Number(row.chars),
  };
}

/** A document with its text. */
export function presentDocument(row: DocumentFields & { content: string }): CollectionDocumentResponse {
  return { ...presentDocumentSummary({ ...row, chars: codePointLength(row.content) }), content: row.content };
}

/** A collection search's answer. */
export function presentCollectionSearch(
  collectionId: string,
  query: string,
  hits: readonly CollectionSearchHit[],
): CollectionSearchResponse {
  return {
    collection_id: collectionId,
    query,
    results: hits.map((hit, i) => ({
      document_id: hit.id,
      url: hit.url,
      title: hit.title,
      filename: hit.filename,
      content_sha256: hit.content_sha256,
      snippet: hit.headline.replace(/\s+/g, ' ').trim(),
      score: Number(hit.rank),
      rank: i + 1,
    })),
    total: hits.length,
  };
}
