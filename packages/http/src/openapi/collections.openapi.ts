import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { errorResponseSchema } from '../routes/common.schemas';
import {
  collectionDeletedResponseSchema,
  collectionDocumentListResponseSchema,
  collectionDocumentParamsSchema,
  collectionDocumentResponseSchema,
  collectionDocumentSummarySchema,
  collectionIdParamsSchema,
  collectionListResponseSchema,
  collectionResponseSchema,
  collectionSearchResponseSchema,
  createCollectionBodySchema,
  documentDeletedResponseSchema,
  listCollectionsQuerySchema,
  searchCollectionQuerySchema,
  uploadDocumentBodySchema,
} from '../routes/collections.schemas';

const json = (schema: z.ZodType, description: string) => ({ description, content: { 'application/json': { schema } } });
const error = (description: string) => json(errorResponseSchema, description);

const UNAUTHORIZED = error('Missing, invalid, expired or revoked API key.');
const NOT_FOUND = error(
  "Unknown or malformed collection id, or another user's collection: `Collection <id> not found` (`Document <doc_id> not found` for a document).",
);
const SYSTEM = error("The service's own collection: it is changed through its folder only.");

/** `/v1/collections`: named sets of uploaded documents, searched with Postgres full-text search. */
export function registerCollectionRoutes(registry: OpenAPIRegistry, secured: RouteConfig['security']): void {
  const route = (config: Omit<RouteConfig, 'tags' | 'security'>) =>
    registry.registerPath({ ...config, tags: ['collections'], security: secured });
  route({
    method: 'post',
    path: '/v1/collections',
    summary: 'Create a collection',
    request: { body: { required: true, content: { 'application/json': { schema: createCollectionBodySchema } } } },
    responses: {
      201: json(collectionResponseSchema, 'The new, empty collection.'),
      400: error('Unparseable JSON.'),
      401: UNAUTHORIZED,
      413: error('Body larger than 1 MiB.'),
      422: error('A field breaks its rule: `<field>: <reason>`.'),
    },
  });
  route({
    method: 'get',
    path: '/v1/collections',
    summary: 'The collections the caller may read',
    description: "Its own and the service's, newest first; an administrator's: every one.",
    request: { query: listCollectionsQuerySchema },
    responses: {
      200: json(collectionListResponseSchema, 'One page.'),
      401: UNAUTHORIZED,
      422: error('`limit` or `offset` out of range.'),
    },
  });
  route({
    method: 'get',
    path: '/v1/collections/{id}',
    summary: 'One collection',
    request: { params: collectionIdParamsSchema },
    responses: { 200: json(collectionResponseSchema, 'The collection.'), 401: UNAUTHORIZED, 404: NOT_FOUND },
  });
  route({
    method: 'delete',
    path: '/v1/collections/{id}',
    summary: 'Delete a collection and its documents',
    description: 'Runs that cited its documents keep their sources, text and hash included.',
    request: { params: collectionIdParamsSchema },
    responses: {
      200: json(collectionDeletedResponseSchema, 'Deleted.'),
      401: UNAUTHORIZED,
      403: SYSTEM,
      404: NOT_FOUND,
    },
  });
  route({
    method: 'post',
    path: '/v1/collections/{id}/documents',
    summary: 'Upload a document',
    description:
      "A PDF, HTML, Markdown or plain text file (at most 5 MiB), extracted once by the crawler's extraction, hashed and indexed.",
    request: {
      params: collectionIdParamsSchema,
      body: { required: true, content: { 'multipart/form-data': { schema: uploadDocumentBodySchema } } },
    },
    responses: {
      201: json(collectionDocumentSummarySchema, 'The stored document, without its text.'),
      400: error('A multipart body that cannot be read (`Malformed multipart body…`).'),
      401: UNAUTHORIZED,
      403: SYSTEM,
      404: NOT_FOUND,
      413: error('A file larger than 5 MiB, or a PDF over the PDF limits.'),
      422: error('No file, an empty one, a type not read, or one without readable text: `file: <reason>`.'),
    },
  });
  route({
    method: 'get',
    path: '/v1/collections/{id}/documents',
    summary: "A collection's documents",
    request: { params: collectionIdParamsSchema, query: listCollectionsQuerySchema },
    responses: {
      200: json(collectionDocumentListResponseSchema, 'One page, without their text.'),
      401: UNAUTHORIZED,
      404: NOT_FOUND,
      422: error('`limit` or `offset` out of range.'),
    },
  });
  route({
    method: 'get',
    path: '/v1/collections/{id}/documents/{doc_id}',
    summary: 'One document with its text',
    request: { params: collectionDocumentParamsSchema },
    responses: { 200: json(collectionDocumentResponseSchema, 'The document.'), 401: UNAUTHORIZED, 404: NOT_FOUND },
  });
  route({
    method: 'delete',
    path: '/v1/collections/{id}/documents/{doc_id}',
    summary: 'Delete a document',
    request: { params: collectionDocumentParamsSchema },
    responses: {
      200: json(documentDeletedResponseSchema, 'Deleted.'),
      401: UNAUTHORIZED,
      403: SYSTEM,
      404: NOT_FOUND,
    },
  });
  route({
    method: 'get',
    path: '/v1/collections/{id}/search',
    summary: 'Full-text search of a collection',
    description:
      "Postgres full-text search in the collection's text search configuration (web search syntax), ranked by ts_rank, each result with the passage ts_headline picks.",
    request: { params: collectionIdParamsSchema, query: searchCollectionQuerySchema },
    responses: {
      200: json(collectionSearchResponseSchema, 'The best documents first.'),
      401: UNAUTHORIZED,
      404: NOT_FOUND,
      422: error('`q` or `limit` breaks its rule.'),
    },
  });
}
