import type { ApiClient } from './client';

// The calls the Collections pages and the Ask form make, one function each, with the shapes the API answers.

/** A collection as GET /v1/collections lists it. */
export interface Collection {
  collection_id: string;
  name: string;
  language: string | null;
  text_search_config: string;
  owner: 'user' | 'system';
  document_count: number;
  created_at: string;
}

export interface CollectionList {
  total: number;
  limit: number;
  offset: number;
  items: Collection[];
}

/** A document of a collection, without its text. */
export interface CollectionDocument {
  document_id: string;
  collection_id: string;
  url: string;
  filename: string;
  title: string;
  content_type: string;
  bytes: number;
  content_sha256: string;
  created_at: string;
  content_length: number;
}

export interface CollectionDocumentList {
  collection_id: string;
  total: number;
  limit: number;
  offset: number;
  items: CollectionDocument[];
}

export interface CollectionSearchResult {
  document_id: string;
  url: string;
  title: string;
  filename: string;
  content_sha256: string;
  snippet: string;
  score: number;
  rank: number;
}

export interface CollectionSearch {
  collection_id: string;
  query: string;
  results: CollectionSearchResult[];
  total: number;
}

const collectionPath = (id: string, rest = '') => `/v1/collections/${encodeURIComponent(id)}${rest}`;

/** GET /v1/collections: the collections the key may read, newest first. */
export function listCollections(api: ApiClient, page: { offset: number; limit: number }, signal?: AbortSignal) {
  return api.get<CollectionList>(`/v1/collections?limit=${page.limit}&offset=${page.offset}`, signal);
}

/** POST /v1/collections. */
export function createCollection(api: ApiClient, body: { name: string; language: string | null }) {
  return api.json<Collection>('POST', '/v1/collections', { body });
}

/** GET /v1/collections/{id}. */
export function getCollection(api: ApiClient, id: string, signal?: AbortSignal) {
  return api.get<Collection>(collectionPath(id), signal);
}

/** DELETE /v1/collections/{id}. */
export function deleteCollection(api: ApiClient, id: string) {
  return api.json<{ deleted: true }>('DELETE', collectionPath(id));
}

/** GET /v1/collections/{id}/documents. */
export function listDocuments(
  api: ApiClient,
  id: string,
  page: { offset: number; limit: number },
  signal?: AbortSignal,
) {
  return api.get<CollectionDocumentList>(
    collectionPath(id, `/documents?limit=${page.limit}&offset=${page.offset}`),
    signal,
  );
}

/** POST /v1/collections/{id}/documents: one file as multipart/form-data. */
export function uploadDocument(api: ApiClient, id: string, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.json<CollectionDocument>('POST', collectionPath(id, '/documents'), { form });
}

/** DELETE /v1/collections/{id}/documents/{doc_id}. */
export function deleteDocument(api: ApiClient, id: string, documentId: string) {
  return api.json<{ deleted: true }>('DELETE', collectionPath(id, `/documents/${encodeURIComponent(documentId)}`));
}

/** GET /v1/collections/{id}/search. */
export function searchCollection(api: ApiClient, id: string, q: string, signal?: AbortSignal) {
  return api.get<CollectionSearch>(collectionPath(id, `/search?q=${encodeURIComponent(q)}&limit=20`), signal);
}
