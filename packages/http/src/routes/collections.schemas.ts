import { z } from 'zod';
import { MAX_COLLECTION_NAME_CHARS } from '@research/core';
import { boundedText, integerParam } from '../validation';
import { isoTimestamp } from './common.schemas';

// ---- Requests ------------------------------------------------------------------------------------

/** POST /v1/collections. */
export const createCollectionBodySchema = z
  .object({
    name: boundedText(1, MAX_COLLECTION_NAME_CHARS, { notBlank: true }).meta({
      description: `The collection's name (1 to ${MAX_COLLECTION_NAME_CHARS} characters, not blank).`,
      example: 'Board minutes 2025',
    }),
    language: boundedText(1, 64).nullable().default(null).meta({
      description:
        'Language of its documents (ISO 639-1, e.g. `en`, `de`): the Postgres text search configuration they are indexed with (stemming, stop words); `simple` (words as written) for none or a language Postgres has none for.',
      example: 'en',
    }),
  })
  .meta({ id: 'CreateCollectionRequest' });
export type CreateCollectionBody = z.output<typeof createCollectionBodySchema>;

/** A collection id in the path; a malformed one is answered like an unknown one (404). */
export const collectionIdParamsSchema = z.object({
  id: z
    .string()
    .meta({ format: 'uuid', description: 'The collection id', example: '5b1e0c8e-2f7a-4d51-9a43-0c6f1d2e3a4b' }),
});

/** A document of a collection in the path. */
export const collectionDocumentParamsSchema = collectionIdParamsSchema.extend({
  doc_id: z
    .string()
    .meta({ format: 'uuid', description: 'The document id', example: '9e2d4b7a-1c3f-4e5d-8a6b-7c8d9e0f1a2b' }),
});

/** GET /v1/collections and GET …/documents: paged like the runs list. */
export const listCollectionsQuerySchema = z.object({
  limit: integerParam({ min: 1, max: 100, default: 10, description: 'Page size (1 to 100).' }),
  offset: integerParam({ min: 0, max: Number.MAX_SAFE_INTEGER, default: 0, description: 'Items to skip (>= 0).' }),
});
export type ListCollectionsQuery = z.output<typeof listCollectionsQuerySchema>;

/** GET /v1/collections/{id}/search. */
export const searchCollectionQuerySchema = z.object({
  q: boundedText(1, 500, { notBlank: true }).meta({
    description: 'What to find (web search syntax: words, "a phrase", -excluded, or).',
    example: 'budget approval',
  }),
  limit: integerParam({ min: 1, max: 50, default: 10, description: 'Most documents answered (1 to 50).' }),
});
export type SearchCollectionQuery = z.output<typeof searchCollectionQuerySchema>;

/** POST /v1/collections/{id}/documents as multipart/form-data. */
export const uploadDocumentBodySchema = z
  .object({
    file: z.string().meta({
      format: 'binary',
      description: 'A PDF, HTML, Markdown or plain text file (.pdf, .html, .htm, .md, .markdown, .txt; at most 5 MiB).',
    }),
  })
  .meta({ id: 'UploadDocumentRequest' });

// ---- Responses -----------------------------------------------------------------------------------

const collectionId = z.string().meta({ format: 'uuid', example: '5b1e0c8e-2f7a-4d51-9a43-0c6f1d2e3a4b' });
const documentId = z.string().meta({ format: 'uuid', example: '9e2d4b7a-1c3f-4e5d-8a6b-7c8d9e0f1a2b' });

export const collectionResponseSchema = z
  .object({
    collection_id: collectionId,
    name: z.string(),
    language: z.string().nullable(),
    text_search_config: z.string().meta({ description: 'The Postgres text search configuration of its index.' }),
    owner: z.enum(['user', 'system']).meta({
      description:
        "`system`: the service's own (LOCAL_CORPUS_DIR), readable by every key and changed only through its folder.",
    }),
    document_count: z.number().int(),
    created_at: isoTimestamp('Creation time (ISO 8601 UTC).'),
  })
  .meta({
    id: 'Collection',
    example: {
      collection_id: '5b1e0c8e-2f7a-4d51-9a43-0c6f1d2e3a4b',
      name: 'Board minutes 2025',
      language: 'en',
      text_search_config: 'english',
      owner: 'user',
      document_count: 12,
      created_at: '2026-12-02T09:30:00.000Z',
    },
  });
export type CollectionResponse = z.infer<typeof collectionResponseSchema>;

export const collectionListResponseSchema = z
  .object({
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    items: z.array(collectionResponseSchema),
  })
  .meta({ id: 'CollectionList' });
export type CollectionListResponse = z.infer<typeof collectionListResponseSchema>;

const documentFields = {
  document_id: documentId,
  collection_id: collectionId,
  url: z.string().meta({
    description: 'The URL a run cites it by: `collection://<collection_id>/<document_id>`.',
    example: 'collection://5b1e0c8e-2f7a-4d51-9a43-0c6f1d2e3a4b/9e2d4b7a-1c3f-4e5d-8a6b-7c8d9e0f1a2b',
  }),
  filename: z.string(),
  title: z.string(),
  content_type: z.enum(['application/pdf', 'text/html', 'text/markdown', 'text/plain']),
  bytes: z.number().int().meta({ description: 'Size of the uploaded file.' }),
  content_sha256: z
    .string()
    .meta({ description: 'Hex SHA-256 of the UTF-8 bytes of `content` (as a source is hashed).' }),
  created_at: isoTimestamp('Upload time (ISO 8601 UTC).'),
};

export const collectionDocumentSummarySchema = z
  .object({
    ...documentFields,
    content_length: z.number().int().meta({ description: 'Characters (code points) of its text.' }),
  })
  .meta({ id: 'CollectionDocumentSummary' });
export type CollectionDocumentSummary = z.infer<typeof collectionDocumentSummarySchema>;

export const collectionDocumentResponseSchema = z
  .object({
    ...documentFields,
    content_length: z.number().int(),
    content: z.string().meta({ description: 'The text extracted from the file, as runs read and cite it.' }),
  })
  .meta({ id: 'CollectionDocument' });
export type CollectionDocumentResponse = z.infer<typeof collectionDocumentResponseSchema>;

export const collectionDocumentListResponseSchema = z
  .object({
    collection_id: collectionId,
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    items: z.array(collectionDocumentSummarySchema),
  })
  .meta({ id: 'CollectionDocumentList' });
export type CollectionDocumentListResponse = z.infer<typeof collectionDocumentListResponseSchema>;

export const collectionSearchResponseSchema = z
  .object({
    collection_id: collectionId,
    query: z.string(),
    results: z.array(
      z.object({
        document_id: documentId,
        url: z.string(),
        title: z.string(),
        filename: z.string(),
        content_sha256: z.string(),
        snippet: z.string().meta({ description: 'The passage that matched best (ts_headline).' }),
        score: z.number().meta({ description: 'ts_rank of the document for the query.' }),
        rank: z.number().int().meta({ description: '1-based position.' }),
      }),
    ),
    total: z.number().int(),
  })
  .meta({ id: 'CollectionSearchResponse' });
export type CollectionSearchResponse = z.infer<typeof collectionSearchResponseSchema>;

export const collectionDeletedResponseSchema = z
  .object({ collection_id: collectionId, deleted: z.literal(true) })
  .meta({ id: 'CollectionDeleted' });
export type CollectionDeletedResponse = z.infer<typeof collectionDeletedResponseSchema>;

export const documentDeletedResponseSchema = z
  .object({ collection_id: collectionId, document_id: documentId, deleted: z.literal(true) })
  .meta({ id: 'CollectionDocumentDeleted' });
export type DocumentDeletedResponse = z.infer<typeof documentDeletedResponseSchema>;
