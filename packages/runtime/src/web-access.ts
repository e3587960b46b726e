import crypto from 'node:crypto';
import type { AppConfig, SourceDraft } from '@research/core';
import type { Crawler } from '@research/crawler';
import type { WebAccess } from '@research/engine';
import type { Logger } from '@research/observability';
import { isLocalUrl, readLocalDocument, runSearches, type SearchProvider } from '@research/search';

/** Hits asked per query: enough to fill the source budget over the round's queries, between 3 and 10. */
function hitsPerQuery(maxSources: number, queries: number): number {
  return Math.min(10, Math.max(3, Math.ceil(maxSources / Math.max(1, queries)) + 1));
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/**
 * The pipeline's way to the web: the configured search provider (packages/search) for the search step,
 * the guarded, budgeted crawler (packages/crawler) for the fetch step, and the local corpus read from
 * disk for `local:` hits. Budgets hold across rounds and resumes: query and byte use live in the run's
 * persisted usage, source and per-domain counts are derived from the sources already kept.
 */
export function createLiveWebAccess(params: {
  config: AppConfig;
  provider: SearchProvider;
  crawler: Crawler;
  logger: Logger;
}): WebAccess {
  const { config, provider, crawler } = params;
  return {
    name: `${provider.name}+crawler`,
    async search(ctx, queries) {
      const result = await runSearches({
        provider,
        queries: queries.map((q) => q.query),
        budget: { maxQueries: ctx.budget.max_search_queries, used: ctx.usage.search_queries ?? 0 },
        language: ctx.run.language,
        limit: hitsPerQuery(ctx.budget.max_sources, queries.length),
        signal: ctx.signal,
        // The engine counts the discovered sources (new to the run, earlier rounds included); counted here
        // as well, every discovery would count twice.
        metrics: {
          searchQueries: (provider, count) => ctx.metrics.searchQueries(provider, count),
          duplicateSources: (count) => ctx.metrics.duplicateSources(count),
          sourcesDiscovered: () => undefined,
        },
      });
      ctx.usage.search_queries = (ctx.usage.search_queries ?? 0) + result.queriesSent;
      if (result.budgetExhausted) {
        ctx.notes.push(`budget:search_queries:${ctx.budget.max_search_queries}:${result.skippedQueries.length}`);
      }
      if (result.failures.length > 0) {
        ctx.notes.push(`search_failures:${ctx.round}:${result.failures.length}:${result.queriesSent}`);
      }
      if (result.allFailed) throw result.lastError;
      return result.hits;
    },

    async fetch(ctx, hits, known) {
      const knownUrls = new Set(known.map((s) => s.url));
      const local = hits.filter((h) => isLocalUrl(h.url) && !knownUrls.has(h.url));
      const remote = [...new Set(hits.filter((h) => !isLocalUrl(h.url)).map((h) => h.url))];
      const published = new Map(hits.map((h) => [h.url, h.published_at]));
      const sources: SourceDraft[] = [];

      const room = Math.max(0, ctx.budget.max_sources - known.length);
      for (const hit of local.slice(0, room)) {
        if (!config.search.localCorpusDir) break;
        try {
          const doc = await readLocalDocument(hit.url, config.search.localCorpusDir);
          sources.push({
            id: crypto.randomUUID(),
            url: doc.url,
            title: doc.title ?? hit.title,
            domain: 'local',
            source_type: 'other',
            retrieved_at: new Date().toISOString(),
            content: doc.text,
            published_at: null,
            language: null,
          });
        } catch (error) {
          ctx.metrics.sourcesRejected('unreadable');
          ctx.logger.warn('local document unreadable', { url: hit.url, error });
        }
      }

      if (remote.length > 0 && known.length + sources.length < ctx.budget.max_sources) {
        const kept = [...known, ...sources];
        const result = await crawler.fetchSources(
          remote,
          {
            max_sources: ctx.budget.max_sources,
            max_pages_per_domain: ctx.budget.max_pages_per_domain,
            max_total_download_bytes: ctx.budget.max_total_download_bytes,
            used: {
              sources: kept.length,
              bytes: ctx.usage.download_bytes ?? 0,
              pages_per_domain: countBy(kept, (s) => s.domain),
            },
          },
          {
            signal: ctx.signal,
            language: ctx.run.language,
            existing: kept.map((s) => ({ url: s.url, content: s.content })),
          },
        );
        ctx.usage.download_bytes = result.usage.bytes;
        // The report lists budgets that ran out among its uncertainties.
        if (result.rejected.some((r) => r.reason === 'budget_bytes')) {
          ctx.notes.push(`budget:download_bytes:${ctx.budget.max_total_download_bytes}`);
        }
        ctx.usage.sources_rejected = (ctx.usage.sources_rejected ?? 0) + result.rejected.length;
        for (const source of result.sources) {
          sources.push({ ...source, published_at: source.published_at ?? published.get(source.url) ?? null });
        }
      }
      return sources;
    },
  };
}
