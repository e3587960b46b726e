import crypto from 'node:crypto';
import { mayManage, type Principal } from '@research/auth';
import {
  AppError,
  collectionDocumentUrl,
  contentSha256,
  isUuid,
  MAX_INDEXED_DOCUMENT_CHARS,
  MAX_RUN_COLLECTIONS,
  textSearchConfig,
  validationError,
} from '@research/core';
import { DEFAULT_MAX_PAGE_BYTES, isCrawlError } from '@research/crawler';
import {
  deleteCollection,
  deleteCollectionDocument,
  findCollectionById,
  findCollectionDocument,
  insertCollection,
  insertCollectionDocument,
  listCollectionDocuments,
  listCollections,
  listReadableCollectionIds,
  searchCollectionDocuments,
  textSearchQueries,
  type CollectionDocumentRow,
  type CollectionDocumentSummary,
  type CollectionSearchMatch,
  type CollectionSummary,
  type Db,
} from '@research/database';
import { localContentType, type LocalContentType } from '@research/search';
import type { RunsContext } from './context';
import type { RequestScope } from './scope';

/** An upload's largest file: the crawler's cap on one page (a PDF within it is read within the PDF limits). */
export const MAX_COLLECTION_UPLOAD_BYTES = DEFAULT_MAX_PAGE_BYTES;

/** Documents one search answers at most. */
export const MAX_COLLECTION_SEARCH_RESULTS = 50;

type Page = { limit: number; offset: number };

/** Who may see which collections: its own and the service's, an administrator every one. */
function readerOf(actor: Principal): { userId: string; everyone: boolean } {
  return { userId: actor.userId, everyone: actor.isAdmin };
}

function notFound(id: string): AppError {
  return new AppError('not_found', `Collection ${id} not found`);
}

/**
 * The collection `id` when the caller may read it: its owner, an administrator, anyone for the service's own.
 * Another user's collection is a 404 as an unknown one is (its existence is not the caller's to learn).
 */
async function readableCollection(db: Db, actor: Principal, id: string): Promise<CollectionSummary> {
  const collection = isUuid(id) ? await findCollectionById(db, id.toLowerCase()) : undefined;
  if (!collection) throw notFound(id);
  if (collection.owner_user_id !== null && !mayManage(collection.owner_user_id, actor)) throw notFound(id);
  return collection;
}

/** The collection `id` when the caller may change it: its owner or an administrator (the service's: 403). */
async function managedCollection(db: Db, actor: Principal, id: string): Promise<CollectionSummary> {
  const collection = await readableCollection(db, actor, id);
  if (collection.system_key !== null) {
    throw new AppError(
      'forbidden',
      'This collection is kept in step with its folder by the service; change the folder.',
    );
  }
  if (!mayManage(collection.owner_user_id, actor))
    throw new AppError('forbidden', 'You may only manage your own collections.');
  return collection;
}

/** POST /v1/collections: a new, empty collection of the caller's. */
export async function createCollection(
  ctx: Pick<RunsContext, 'db'>,
  scope: RequestScope,
  input: { name: string; language: string | null },
): Promise<CollectionSummary> {
  const row = await insertCollection(ctx.db, {
    id: crypto.randomUUID(),
    owner_user_id: scope.actor.userId,
    name: input.name,
    language: input.language,
    text_search_config: textSearchConfig(input.language),
  });
  return { ...row, document_count: 0 };
}

/** GET /v1/collections: a page of the collections the caller may read, newest first. */
export function listReadableCollections(
  ctx: Pick<RunsContext, 'db'>,
  scope: RequestScope,
  page: Page,
): Promise<{ total: number; items: CollectionSummary[] }> {
  return listCollections(ctx.db, readerOf(scope.actor), page);
}

/** GET /v1/collections/{id}. */
export function getCollection(
  ctx: Pick<RunsContext, 'db'>,
  scope: RequestScope,
  id: string,
): Promise<CollectionSummary> {
  return readableCollection(ctx.db, scope.actor, id);
}

/** DELETE /v1/collections/{id}: the collection and its documents; runs that cited them keep their sources. */
export async function removeCollection(ctx: Pick<RunsContext, 'db'>, scope: RequestScope, id: string): Promise<void> {
  const collection = await managedCollection(ctx.db, scope.actor, id);
  if (!(await deleteCollection(ctx.db, collection.id))) throw notFound(id);
  scope.logger.info('collection deleted', { collection_id: collection.id });
}

/** An uploaded file as the route received it. */
export interface UploadedFile {
  body: Buffer;
  filename: string;
  mediaType: string;
}

const UPLOAD_TYPES = 'a PDF, HTML, Markdown or plain text file (.pdf, .html, .htm, .md, .markdown, .txt)';

const MEDIA_TYPES: Readonly<Record<string, LocalContentType>> = {
  'application/pdf': 'application/pdf',
  'text/html': 'text/html',
  'text/markdown': 'text/markdown',
  'text/x-markdown': 'text/markdown',
  'text/plain': 'text/plain',
};

/** The type of an upload: by its name's extension (as the local corpus reads files), else its media type. */
function uploadType(file: UploadedFile): LocalContentType {
  const type = localContentType(file.filename) ?? MEDIA_TYPES[file.mediaType.split(';', 1)[0]!.trim().toLowerCase()];
  if (!type) throw validationError('file', `must be ${UPLOAD_TYPES}`);
  return type;
}

const EXTRACTION: Readonly<Record<LocalContentType, { kind: 'html' | 'pdf' | 'text'; format?: 'markdown' }>> = {
  'application/pdf': { kind: 'pdf' },
  'text/html': { kind: 'html' },
  'text/markdown': { kind: 'text', format: 'markdown' },
  'text/plain': { kind: 'text' },
};

/** A name as a line of text: control characters (NUL, which Postgres refuses, among them) as spaces. */
function oneLine(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

/** A document's title: what its text says, else its file name without the extension. */
function titleOf(extracted: string | null, filename: string): string {
  const title = extracted === null ? '' : oneLine(extracted).replace(/\s+/g, ' ');
  if (title) return title.slice(0, 500);
  return (
    filename
      .replace(/\.[^.]*$/, '')
      .replace(/[-_]+/g, ' ')
      .trim() ||
    filename ||
    'Untitled'
  );
}

/**
 * POST /v1/collections/{id}/documents: the file's text, extracted once by the crawler's extraction (in its pool,
 * within the crawler's page and PDF limits), hashed as a source is (SHA-256 of the text) and stored with its
 * full-text index. An empty text, a type not read, an unreadable file: 422; nothing is stored then.
 */
export async function uploadCollectionDocument(
  ctx: Pick<RunsContext, 'db' | 'tools'>,
  scope: RequestScope,
  upload: { collectionId: string; file: UploadedFile },
  signal?: AbortSignal,
): Promise<Omit<CollectionDocumentRow, 'content' | 'search_vector'> & { chars: number }> {
  const file = { ...upload.file, filename: oneLine(upload.file.filename).slice(0, 500) };
  const collection = await managedCollection(ctx.db, scope.actor, upload.collectionId);
  if (file.body.length === 0) throw validationError('file', 'must not be empty');
  if (file.body.length > MAX_COLLECTION_UPLOAD_BYTES) {
    throw new AppError('payload_too_large', `file: the document is larger than ${MAX_COLLECTION_UPLOAD_BYTES} bytes`);
  }
  const contentType = uploadType(file);
  const documentId = crypto.randomUUID();
  const url = collectionDocumentUrl(collection.id, documentId);
  let extracted;
  try {
    extracted = await ctx.tools
      .crawler()
      .extractFile(new Uint8Array(file.body), { ...EXTRACTION[contentType], contentType, url }, signal);
  } catch (error) {
    if (!isCrawlError(error)) throw error;
    if (error.reason === 'too_large') throw new AppError('payload_too_large', `file: ${error.message}`);
    throw validationError('file', `cannot be read (${error.reason}): ${error.message}`);
  }
  const content = extracted.content.replace(/\u0000/g, '');
  if (content.trim() === '') throw validationError('file', 'holds no text that could be read');
  const row = await storeDocument(
    ctx.db,
    {
      id: documentId,
      collection_id: collection.id,
      filename: file.filename || 'document',
      title: titleOf(extracted.title, file.filename),
      content_type: contentType,
      bytes: file.body.length,
      content,
      content_sha256: contentSha256(content),
    },
    { config: collection.text_search_config, indexedChars: MAX_INDEXED_DOCUMENT_CHARS },
  );
  scope.logger.info('collection document stored', { collection_id: collection.id, document_id: documentId });
  return { ...row, chars: content.length };
}

/** Stores a document; a text whose index would pass Postgres's 1 MB tsvector limit is a 422. */
async function storeDocument(...args: Parameters<typeof insertCollectionDocument>) {
  try {
    return await insertCollectionDocument(...args);
  } catch (error) {
    if ((error as { code?: unknown }).code === '54000') {
      throw validationError('file', 'holds too many distinct words to be indexed');
    }
    throw error;
  }
}

/** GET /v1/collections/{id}/documents. */
export async function listDocumentsOfCollection(
  ctx: Pick<RunsContext, 'db'>,
  scope: RequestScope,
  id: string,
  page: Page,
): Promise<{ total: number; items: CollectionDocumentSummary[] }> {
  const collection = await readableCollection(ctx.db, scope.actor, id);
  return listCollectionDocuments(ctx.db, collection.id, page);
}

function documentNotFound(id: string): AppError {
  return new AppError('not_found', `Document ${id} not found`);
}

/** GET /v1/collections/{id}/documents/{doc_id}: the document with its text. */
export async function getCollectionDocument(
  ctx: Pick<RunsContext, 'db'>,
  scope: RequestScope,
  id: string,
  documentId: string,
): Promise<Omit<CollectionDocumentRow, 'search_vector'>> {
  const collection = await readableCollection(ctx.db, scope.actor, id);
  const doc = isUuid(documentId)
    ? await findCollectionDocument(ctx.db, collection.id, documentId.toLowerCase())
    : undefined;
  if (!doc) throw documentNotFound(documentId);
  return doc;
}

/** DELETE /v1/collections/{id}/documents/{doc_id}. */
export async function removeCollectionDocument(
  ctx: Pick<RunsContext, 'db'>,
  scope: RequestScope,
  id: string,
  documentId: string,
): Promise<void> {
  const collection = await managedCollection(ctx.db, scope.actor, id);
  const deleted =
    isUuid(documentId) && (await deleteCollectionDocument(ctx.db, collection.id, documentId.toLowerCase()));
  if (!deleted) throw documentNotFound(documentId);
}

/** One search hit of a collection, with the URL a run cites the document by. */
export type CollectionSearchHit = CollectionSearchMatch & { url: string };

/** GET /v1/collections/{id}/search: its documents matching `q` (websearch syntax), by ts_rank, with a headline. */
export async function searchCollection(
  ctx: Pick<RunsContext, 'db'>,
  scope: RequestScope,
  id: string,
  input: { q: string; limit: number },
): Promise<{ collection: CollectionSummary; results: CollectionSearchHit[] }> {
  const collection = await readableCollection(ctx.db, scope.actor, id);
  const config = collection.text_search_config;
  const query = (await textSearchQueries(ctx.db, [config], input.q, 'all')).get(config) ?? '';
  const matches = await searchCollectionDocuments(ctx.db, [{ id: collection.id, config, query }], input.limit);
  return {
    collection,
    results: matches.map((m) => ({ ...m, url: collectionDocumentUrl(m.collection_id, m.id) })),
  };
}

/**
 * The `collection_ids` of a new run as stored: every one a collection the creator may read (422 naming the
 * first that is not), without repeats; null for none.
 */
export async function checkedRunCollections(
  db: Db,
  actor: Principal,
  ids: readonly string[] | undefined,
): Promise<string[] | null> {
  if (!ids || ids.length === 0) return null;
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  if (wanted.length > MAX_RUN_COLLECTIONS) {
    throw validationError('collection_ids', `must have at most ${MAX_RUN_COLLECTIONS} items`);
  }
  const readable = new Set((await listReadableCollectionIds(db, wanted, readerOf(actor))).map((c) => c.id));
  const missing = wanted.find((id) => !readable.has(id));
  if (missing !== undefined) throw validationError('collection_ids', `${missing} is not a collection you may read`);
  return wanted;
}
