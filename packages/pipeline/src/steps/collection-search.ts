import crypto from 'node:crypto';
import { isCollectionUrl, readRunCollections, type SourceDraft } from '@research/core';
import type { SearchHit, SearchOptions, SearchProvider } from '@research/search';
import type { StepContext } from '../steps';

/** The provider name collection hits carry (a run's search results and metrics). */
export const COLLECTION_PROVIDER = 'collection';

/**
 * The search a run's queries go to: the configured provider for a run without collections (as before); for a run
 * created with `collection_ids`, its collections' full-text search beside the web (their hits and the web's taking
 * turns, so a result page holds both), or instead of it (`web: false`: the web is never asked).
 */
export function runSearchProvider(ctx: Pick<StepContext, 'run' | 'services'>): SearchProvider {
  const web = ctx.services.searchProvider;
  const collections = readRunCollections(ctx.run.collections);
  const library = ctx.services.collections;
  if (!collections || !library) return web;
  const searchCollections = async (query: string, options: SearchOptions): Promise<SearchHit[]> => {
    options.signal?.throwIfAborted();
    const found = await library.search(collections.ids, query, options.limit);
    return found.map((hit, i) => ({ ...hit, published_at: null, provider: COLLECTION_PROVIDER, rank: i + 1 }));
  };
  if (!collections.web) return { name: COLLECTION_PROVIDER, search: searchCollections };
  return {
    name: web.name,
    async search(query, options) {
      const [own, webHits] = await Promise.allSettled([searchCollections(query, options), web.search(query, options)]);
      if (own.status === 'rejected') throw own.reason;
      // The web failing leaves the collections' hits; with none, the query failed as it would without them.
      if (webHits.status === 'rejected' && own.value.length === 0) throw webHits.reason;
      const other = webHits.status === 'fulfilled' ? webHits.value : [];
      const merged: SearchHit[] = [];
      for (let i = 0; merged.length < options.limit && (i < own.value.length || i < other.length); i++) {
        for (const hit of [own.value[i], other[i]]) if (hit && merged.length < options.limit) merged.push(hit);
      }
      return merged.map((hit, i) => ({ ...hit, rank: i + 1 }));
    },
  };
}

/**
 * Collection documents among `hits` read from their stored text, up to `room` (a document deleted since its hit
 * is unreadable). The source keeps the text, so a run stays verifiable when the collection is deleted.
 */
export async function readCollectionHits(
  ctx: StepContext,
  hits: ReadonlyArray<{ url: string; title: string | null }>,
  room: number,
): Promise<{ sources: SourceDraft[]; unreadable: number }> {
  const library = ctx.services.collections;
  const sources: SourceDraft[] = [];
  let unreadable = 0;
  for (const hit of hits.filter((h) => isCollectionUrl(h.url)).slice(0, room)) {
    const doc = library ? await library.read(hit.url) : null;
    if (!doc) {
      unreadable++;
      ctx.metrics.sourcesRejected('unreadable');
      ctx.progress({ type: 'source', round: ctx.round, url: hit.url, outcome: 'rejected', reason: 'unreadable' });
      continue;
    }
    sources.push({
      id: crypto.randomUUID(),
      url: doc.url,
      title: doc.title || hit.title,
      domain: COLLECTION_PROVIDER,
      source_type: 'other',
      retrieved_at: new Date().toISOString(),
      content: doc.content,
      published_at: null,
      language: null,
    });
  }
  return { sources, unreadable };
}
