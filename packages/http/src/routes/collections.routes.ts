import { Router } from 'express';
import { validationError } from '@research/core';
import {
  createCollection,
  getCollection,
  getCollectionDocument,
  listDocumentsOfCollection,
  listReadableCollections,
  MAX_COLLECTION_UPLOAD_BYTES,
  removeCollection,
  removeCollectionDocument,
  searchCollection,
  uploadCollectionDocument,
} from '@research/runs';
import type { AppContext } from '../context';
import { requireApiKey } from '../middleware/authenticate';
import { jsonBody } from '../middleware/body-parsing';
import { fileUpload } from '../middleware/file-upload';
import {
  presentCollection,
  presentCollectionSearch,
  presentDocument,
  presentDocumentSummary,
} from '../presenters/collections.presenter';
import { scopeOf } from '../request-scope';
import { requestSignal } from '../request-signal';
import { parseBody, parseQuery } from '../validation';
import {
  createCollectionBodySchema,
  listCollectionsQuerySchema,
  searchCollectionQuerySchema,
  type CollectionDeletedResponse,
  type CollectionDocumentListResponse,
  type CollectionListResponse,
  type DocumentDeletedResponse,
} from './collections.schemas';

/**
 * `/v1/collections`: named sets of uploaded documents, searched with Postgres full-text search and by runs
 * created with `collection_ids`. A caller sees its own and the service's; an administrator every one; only
 * the owner or an administrator changes one.
 */
export function createCollectionsRouter(ctx: AppContext): Router {
  const router = Router();
  const upload = fileUpload({ maxBytes: MAX_COLLECTION_UPLOAD_BYTES, noun: 'document' });
  // The key is checked before any body is read (an anonymous upload is never buffered).
  router.use(requireApiKey(ctx));
  router.post('/:id/documents', upload, async (req, res) => {
    if (!req.is('multipart/form-data')) throw validationError('file', 'must be sent as multipart/form-data');
    if (!req.file) throw validationError('file', 'Required');
    const file = {
      body: req.file.buffer,
      filename: req.file.originalname || 'document',
      mediaType: req.file.mimetype || '',
    };
    const upload = { collectionId: String(req.params.id), file };
    const doc = await uploadCollectionDocument(ctx, scopeOf(res), upload, requestSignal(res));
    res.status(201).json(presentDocumentSummary(doc));
  });
  router.use(jsonBody());

  router.post('/', async (req, res) => {
    const input = parseBody(createCollectionBodySchema, req.body, { required: true });
    res.status(201).json(presentCollection(await createCollection(ctx, scopeOf(res), input)));
  });

  router.get('/', async (req, res) => {
    const page = parseQuery(listCollectionsQuerySchema, req.query);
    const { total, items } = await listReadableCollections(ctx, scopeOf(res), page);
    res.json({ total, ...page, items: items.map(presentCollection) } satisfies CollectionListResponse);
  });

  router.get('/:id', async (req, res) => {
    res.json(presentCollection(await getCollection(ctx, scopeOf(res), req.params.id)));
  });

  router.delete('/:id', async (req, res) => {
    await removeCollection(ctx, scopeOf(res), req.params.id);
    res.json({ collection_id: req.params.id.toLowerCase(), deleted: true } satisfies CollectionDeletedResponse);
  });

  router.get('/:id/documents', async (req, res) => {
    const page = parseQuery(listCollectionsQuerySchema, req.query);
    const { total, items } = await listDocumentsOfCollection(ctx, scopeOf(res), req.params.id, page);
    res.json({
      collection_id: req.params.id.toLowerCase(),
      total,
      ...page,
      items: items.map(presentDocumentSummary),
    } satisfies CollectionDocumentListResponse);
  });

  router.get('/:id/documents/:doc_id', async (req, res) => {
    res.json(presentDocument(await getCollectionDocument(ctx, scopeOf(res), req.params.id, req.params.doc_id)));
  });

  router.delete('/:id/documents/:doc_id', async (req, res) => {
    await removeCollectionDocument(ctx, scopeOf(res), req.params.id, req.params.doc_id);
    res.json({
      collection_id: req.params.id.toLowerCase(),
      document_id: req.params.doc_id.toLowerCase(),
      deleted: true,
    } satisfies DocumentDeletedResponse);
  });

  router.get('/:id/search', async (req, res) => {
    const input = parseQuery(searchCollectionQuerySchema, req.query);
    const { collection, results } = await searchCollection(ctx, scopeOf(res), req.params.id, input);
    res.json(presentCollectionSearch(collection.id, input.q, results));
  });
  return router;
}
