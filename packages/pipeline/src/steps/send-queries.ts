import type { SearchResultDraft } from '@research/core';
import { fusionWeight, type PlannedQuery } from '@research/engine';
import { hitUrlKey, runSearches } from '@research/search';
import type { StepContext } from '../steps';
import { runSearchProvider } from './collection-search';
import { controlsOf, keepControlled } from './source-controls';

/**
 * Hits asked per query: a whole result page. The round's lists are fused (a page found by several queries
 * rises), so a query's lower ranks still count; asking for fewer would hide the question's ranks 4 to 10.
 */
const HITS_PER_QUERY = 10;

/**
 * Sends the queries through the configured provider within the run's query budget (persisted usage, so it
 * holds across rounds and resumes), and records budgets that ran out and queries that failed. Returns every
 * result list's hits, each under its own query and rank (a page two queries found comes twice: the fetch step
 * fuses the lists itself), for URLs not in `options.seen` (the run's sources) that the run's source controls
 * keep (passed to the provider as its filter, and checked on each hit), counting the distinct URLs not among
 * `options.found` (the run's hits so far) as discovered and the others as duplicates. When every query failed: throws with `failWhenAllFail` (the round
 * has nothing to read), else returns no hits.
 */
export async function sendQueries(
  ctx: StepContext,
  queries: readonly PlannedQuery[],
  options: { failWhenAllFail: boolean; seen: ReadonlySet<string>; found?: Iterable<string> },
): Promise<SearchResultDraft[]> {
  const controls = controlsOf(ctx);
  const result = await runSearches({
    provider: runSearchProvider(ctx),
    queries: queries.map((q) => q.query),
    weights: queries.map((q) => fusionWeight(q, ctx.run.query)),
    maxQueries: ctx.budget.remaining('search_queries'),
    language: ctx.run.language,
    limit: HITS_PER_QUERY,
    signal: ctx.signal,
    ...(controls ? { filter: controls } : {}),
    // Discoveries are counted below, against the run's URLs (earlier rounds included); counted by
    // runSearches as well, every discovery would count twice.
    metrics: {
      searchQueries: (provider, count) => ctx.metrics.searchQueries(provider, count),
      duplicateSources: (count) => ctx.metrics.duplicateSources(count),
      sourcesDiscovered: () => undefined,
    },
  });
  ctx.budget.take('search_queries', result.queriesSent);
  const failed = new Set(result.failures.map((f) => f.query));
  for (const query of result.sent) ctx.progress({ type: 'query', round: ctx.round, query, failed: failed.has(query) });
  if (result.budgetExhausted) {
    ctx.note({
      kind: 'budget',
      resource: 'search_queries',
      max: ctx.budget.max_search_queries,
      dropped: result.skippedQueries.length,
    });
  }
  if (result.failures.length > 0) {
    ctx.note({
      kind: 'search_failures',
      round: ctx.round,
      failed: result.failures.length,
      total: result.queriesSent,
    });
  }
  if (result.allFailed && options.failWhenAllFail) throw result.lastError;
  // Providers filter natively where they can; every hit is checked all the same, before it is stored or read
  // (each URL once: the progress stream names a refused URL once).
  const seen = new Set([...options.seen].map((url) => hitUrlKey(url) ?? url));
  const unseen = result.hits.filter((d) => !seen.has(hitUrlKey(d.url) ?? d.url));
  const allowed = new Set(keepControlled(ctx, unseen).map((d) => hitUrlKey(d.url)));
  const found = new Set([...(options.found ?? [])].map((url) => hitUrlKey(url) ?? url));
  const discovered = [...allowed].filter((key) => !found.has(key!)).length;
  ctx.metrics.sourcesDiscovered(discovered);
  ctx.metrics.duplicateSources(result.hits.length - discovered);
  return result.listed.filter((d) => allowed.has(hitUrlKey(d.url)));
}
