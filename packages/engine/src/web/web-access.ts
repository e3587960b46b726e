import type { AppConfig, SearchResultDraft, SourceDraft } from '@research/core';
import type { SearchResultRow, SourceRow } from '@research/database';
import { fetchStep, searchMediaWiki, wikiEndpoints, type StepContext } from '@research/pipeline';

export interface PlannedQuery {
  query: string;
  dimension: string;
}

/**
 * How the engine reaches the web. Search enforces max_search_queries (ctx.usage.search_queries) and
 * counts its metrics; fetch enforces the crawl budgets (max_sources given the run's `known` sources,
 * max_pages_per_domain, max_total_download_bytes via ctx.usage.download_bytes) and counts rejections.
 * Both leave notes in ctx.notes when a budget cuts them short.
 */
export interface WebAccess {
  readonly name: string;
  search(ctx: StepContext, queries: readonly PlannedQuery[]): Promise<SearchResultDraft[]>;
  fetch(ctx: StepContext, hits: readonly SearchResultRow[], known: readonly SourceRow[]): Promise<SourceDraft[]>;
}

const PROVIDER = 'wikipedia';

/** Hits per query: enough to fill the source budget over the round's queries, between 3 and 10. */
function hitsPerQuery(maxSources: number, queries: number): number {
  return Math.min(10, Math.max(3, Math.ceil(maxSources / Math.max(1, queries)) + 1));
}

/**
 * The web access of the placeholder engine, adapted: MediaWiki search (WIKIPEDIA_API_URL or the run
 * language's Wikipedia) and the plain page fetcher. The real providers (packages/search,
 * packages/crawler) replace it behind the same interface.
 */
export function createPlainWebAccess(config: Pick<AppConfig, 'search' | 'crawler'>): WebAccess {
  const timeoutMs = config.crawler.timeoutMs;
  return {
    name: 'plain',
    async search(ctx, queries) {
      const sent = ctx.usage.search_queries ?? 0;
      const allowance = Math.max(0, ctx.budget.max_search_queries - sent);
      const chosen = queries.slice(0, allowance);
      if (queries.length > chosen.length) {
        ctx.notes.push(`budget:search_queries:${ctx.budget.max_search_queries}:${queries.length - chosen.length}`);
      }
      const endpoints = wikiEndpoints(config.search.wikipediaApiUrl, ctx.run.language);
      const limit = hitsPerQuery(ctx.budget.max_sources, chosen.length);
      // Queries go out in parallel; hits are kept in query order, so the result is the same every time.
      const answers = await Promise.all(
        chosen.map(async (q) => {
          ctx.usage.search_queries = (ctx.usage.search_queries ?? 0) + 1;
          ctx.metrics.searchQueries(PROVIDER);
          try {
            return {
              q,
              hits: await searchMediaWiki({ endpoints, query: q.query, limit, timeoutMs, signal: ctx.signal }),
            };
          } catch (error) {
            if (ctx.signal.aborted) throw error;
            ctx.logger.warn('search query failed', { query: q.query, error });
            return { q, hits: null };
          }
        }),
      );
      const failures = answers.filter((a) => a.hits === null).length;
      if (chosen.length > 0 && failures === chosen.length) throw new Error('Search failed for every query');
      if (failures > 0) ctx.notes.push(`search_failures:${ctx.round}:${failures}:${chosen.length}`);
      return answers.flatMap(({ q, hits }) =>
        (hits ?? []).map((hit, index) => ({
          query: q.query,
          url: hit.url,
          title: hit.title,
          snippet: hit.snippet,
          published_at: hit.timestamp,
          provider: PROVIDER,
          rank: index + 1,
        })),
      );
    },
    async fetch(ctx, hits, known) {
      // The plain fetch step reads this round's hits from a snapshot; it gets exactly the chosen ones.
      const drafts = await fetchStep(
        { ...ctx, round: ctx.round },
        {
          plan: null,
          searchResults: hits.map((h) => ({ ...h, round: ctx.round })),
          sources: [...known],
          claims: [],
          evidence: [],
        },
        {
          timeoutMs,
          allowPrivateNetworks: config.crawler.allowPrivateNetworks,
          trustedOrigin: wikiEndpoints(config.search.wikipediaApiUrl, ctx.run.language).origin,
        },
      );
      const byUrl = new Map(hits.map((h) => [h.url, h]));
      // MediaWiki's timestamp is the page's last edit: the best publication date the wiki gives.
      return drafts.map((d) => ({ ...d, published_at: d.published_at ?? byUrl.get(d.url)?.published_at ?? null }));
    },
  };
}
