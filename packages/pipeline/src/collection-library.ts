import { collectionDocumentUrl, parseCollectionUrl } from '@research/core';
import {
  findCollectionDocument,
  findCollectionScopes,
  searchCollectionDocuments,
  textSearchQueries,
  type Db,
} from '@research/database';

/** A document of a collection as a run reads it: its stored text (never read again from the upload). */
export interface CollectionDocumentText {
  url: string;
  title: string;
  content: string;
  content_sha256: string;
}

/** One document a collection search found, in the shape of a search hit's parts. */
export interface CollectionHit {
  url: string;
  title: string;
  snippet: string;
}

/** The collections a run searches beside (or instead of) the web: full-text search and the stored texts. */
export interface CollectionLibrary {
  /** The best `limit` documents of the collections `ids` (those that still exist) for `query`. */
  search(ids: readonly string[], query: string, limit: number): Promise<CollectionHit[]>;
  /** The document a `collection://` URL names, or null when it is gone or the URL names none. */
  read(url: string): Promise<CollectionDocumentText | null>;
}

/** The collection library over the database: Postgres full-text search with each collection's configuration. */
export function createCollectionLibrary(db: Db): CollectionLibrary {
  return {
    async search(ids, query, limit) {
      // The run's creator could read every one of them when it was created (checked then); a deleted one is gone.
      const collections = await findCollectionScopes(db, ids);
      const configs = collections.map((c) => c.text_search_config);
      const queries = await textSearchQueries(db, configs, query, 'any');
      const scopes = collections.map((c) => ({
        id: c.id,
        config: c.text_search_config,
        query: queries.get(c.text_search_config) ?? '',
      }));
      const matches = await searchCollectionDocuments(db, scopes, limit);
      return matches.map((m) => ({
        url: collectionDocumentUrl(m.collection_id, m.id),
        title: m.title,
        snippet: m.headline.replace(/\s+/g, ' ').trim(),
      }));
    },
    async read(url) {
      const named = parseCollectionUrl(url);
      if (!named) return null;
      const doc = await findCollectionDocument(db, named.collectionId, named.documentId);
      if (!doc) return null;
      return { url, title: doc.title, content: doc.content, content_sha256: doc.content_sha256 };
    },
  };
}
