import type { SearchResultDraft, SourceDraft } from '@research/core';
import type { SearchResultRow, SourceRow } from '@research/database';
import type { StepContext } from '@research/pipeline';

export interface PlannedQuery {
  query: string;
  dimension: string;
}

/**
 * How the engine reaches the web. Search enforces max_search_queries (ctx.usage.search_queries) and
 * counts the queries it sends (the engine counts the sources discovered); fetch enforces the crawl budgets (max_sources given the run's `known` sources,
 * max_pages_per_domain, max_total_download_bytes via ctx.usage.download_bytes) and counts rejections.
 * Both leave notes in ctx.notes when a budget cuts them short.
 */
export interface WebAccess {
  readonly name: string;
  search(ctx: StepContext, queries: readonly PlannedQuery[]): Promise<SearchResultDraft[]>;
  fetch(ctx: StepContext, hits: readonly SearchResultRow[], known: readonly SourceRow[]): Promise<SourceDraft[]>;
}
