import crypto from 'node:crypto';
import { contentSha256, MAX_INDEXED_DOCUMENT_CHARS } from '@research/core';
import {
  deleteCollectionDocuments,
  ensureSystemCollection,
  insertCollectionDocument,
  listCollectionFiles,
  tryLockSystemCollection,
  type Database,
} from '@research/database';
import type { Logger } from '@research/observability';
import { localContentType, type LocalIndexedDocument, type LocalSearchProvider } from '@research/search';

/** The system_key of LOCAL_CORPUS_DIR's collection. */
export const LOCAL_COLLECTION_KEY = 'local';

/** The folder's collection: no language (its files may be in any), so words are indexed as written. */
const LOCAL_COLLECTION = { name: 'Local folder (LOCAL_CORPUS_DIR)', language: null, text_search_config: 'simple' };

/** What one pass changed, or null when another process held the collection's lock. */
export type LocalCollectionPass = { added: number; removed: number; documents: number } | null;

export interface LocalCollectionSync {
  /** Brings the collection in step with the provider's index now (after its first build). */
  syncNow(): Promise<LocalCollectionPass>;
  close(): Promise<void>;
}

/**
 * Keeps the service's collection of LOCAL_CORPUS_DIR (system_key `local`, no owner: readable by every key, changed
 * only through the folder) in step with the `local` provider's index, which follows the folder (file events and
 * polling): at start and every `intervalMs`, added and changed files are stored (their text as the provider read
 * it, hashed and indexed), removed ones deleted. One process at a time does a pass (an advisory lock); a file's
 * hash is computed once per version of the file. The provider's own ranking (BM25) is unchanged: the collection
 * makes the folder searchable with Postgres full-text search beside it, and nameable in a run's collection_ids.
 */
export function startLocalCollectionSync(deps: {
  db: Database;
  provider: Pick<LocalSearchProvider, 'whenReady' | 'indexedDocuments'>;
  logger: Logger;
  intervalMs: number;
}): LocalCollectionSync {
  const { db, provider, logger } = deps;
  const hashes = new Map<string, { stamp: string; sha: string }>();
  let running: Promise<LocalCollectionPass> | null = null;
  let closed = false;

  const hashOf = (doc: LocalIndexedDocument): string => {
    const known = hashes.get(doc.path);
    if (known?.stamp === doc.stamp) return known.sha;
    const sha = contentSha256(doc.text);
    hashes.set(doc.path, { stamp: doc.stamp, sha });
    return sha;
  };

  async function pass(): Promise<LocalCollectionPass> {
    await provider.whenReady();
    const documents = provider.indexedDocuments().filter((d) => d.text.trim() !== '');
    const wanted = new Map(documents.map((d) => [d.path, { doc: d, sha: hashOf(d) }]));
    for (const path of [...hashes.keys()]) if (!wanted.has(path)) hashes.delete(path);
    return db.transaction().execute(async (trx) => {
      if (!(await tryLockSystemCollection(trx, LOCAL_COLLECTION_KEY))) return null;
      const collection = await ensureSystemCollection(trx, {
        id: crypto.randomUUID(),
        system_key: LOCAL_COLLECTION_KEY,
        ...LOCAL_COLLECTION,
      });
      const stored = await listCollectionFiles(trx, collection.id);
      const stale = stored.filter((row) => wanted.get(row.filename)?.sha !== row.content_sha256);
      await deleteCollectionDocuments(
        trx,
        collection.id,
        stale.map((row) => row.id),
      );
      const kept = new Set(stored.filter((row) => !stale.includes(row)).map((row) => row.filename));
      let added = 0;
      for (const { doc, sha } of wanted.values()) {
        if (kept.has(doc.path) || closed) continue;
        await insertCollectionDocument(
          trx,
          {
            id: crypto.randomUUID(),
            collection_id: collection.id,
            filename: doc.path,
            title: doc.title,
            content_type: localContentType(doc.path) ?? 'text/plain',
            bytes: doc.bytes,
            content: doc.text,
            content_sha256: sha,
          },
          { config: collection.text_search_config, indexedChars: MAX_INDEXED_DOCUMENT_CHARS },
        );
        added++;
      }
      // A replaced file is removed and added: count it once, as a change.
      return { added, removed: stale.length, documents: wanted.size };
    });
  }

  function syncNow(): Promise<LocalCollectionPass> {
    running ??= pass()
      .then((result) => {
        if (result && result.added + result.removed > 0) logger.info('local folder collection in step', result);
        return result;
      })
      .finally(() => {
        running = null;
      });
    return running;
  }

  const quietly = () =>
    void syncNow().catch((error: unknown) => logger.warn('local folder collection not brought in step', { error }));
  quietly();
  const timer = deps.intervalMs > 0 ? setInterval(quietly, deps.intervalMs) : null;
  timer?.unref();
  return {
    syncNow,
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
