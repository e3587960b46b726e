import type { SearchResultDraft } from '@research/core';
import type { RunSnapshot, StepContext } from '../steps';
import { searchMediaWiki, wikiEndpoints } from './mediawiki';
import { queriesOfRound } from './plan.step';

export interface SearchSettings {
  wikipediaApiUrl: string | undefined;
  timeoutMs: number;
}

const PROVIDER = 'wikipedia';

/** Hits per query: enough to fill the source budget over the round's queries, never more than 10. */
function hitsPerQuery(maxSources: number, queries: number): number {
  return Math.min(10, Math.max(3, Math.ceil(maxSources / Math.max(1, queries)) + 1));
}

/**
 * Sends this round's planned queries to the MediaWiki search API within the run's query budget
 * (usage.search_queries counts what was sent). Keeps each URL once per run; repeats count as duplicates.
 */
export async function searchStep(
  ctx: StepContext,
  snapshot: RunSnapshot,
  settings: SearchSettings,
): Promise<SearchResultDraft[]> {
  if (!snapshot.plan) throw new Error('Cannot search without a plan');
  const planned = queriesOfRound(snapshot.plan, ctx.round, ctx.rounds);
  const sent = ctx.usage.search_queries ?? 0;
  const allowance = Math.max(0, ctx.budget.max_search_queries - sent);
  const queries = planned.slice(0, allowance);
  if (planned.length > queries.length) {
    ctx.notes.push(
      `Search query budget of ${ctx.budget.max_search_queries} reached; ${planned.length - queries.length} planned queries were not sent.`,
    );
  }
  const endpoints = wikiEndpoints(settings.wikipediaApiUrl, ctx.run.language);
  const limit = hitsPerQuery(ctx.budget.max_sources, queries.length);
  const seen = new Set(snapshot.searchResults.map((r) => r.url));
  const drafts: SearchResultDraft[] = [];
  let duplicates = 0;
  let failures = 0;
  let lastError: unknown;
  for (const query of queries) {
    ctx.signal.throwIfAborted();
    ctx.usage.search_queries = (ctx.usage.search_queries ?? 0) + 1;
    ctx.metrics.searchQueries(PROVIDER);
    try {
      const hits = await searchMediaWiki({
        endpoints,
        query,
        limit,
        timeoutMs: settings.timeoutMs,
        signal: ctx.signal,
      });
      hits.forEach((hit, index) => {
        if (seen.has(hit.url)) {
          duplicates++;
          return;
        }
        seen.add(hit.url);
        drafts.push({
          query,
          url: hit.url,
          title: hit.title,
          snippet: hit.snippet,
          published_at: null,
          provider: PROVIDER,
          rank: index + 1,
        });
      });
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      failures++;
      lastError = error;
      ctx.logger.warn('search query failed', { query, error });
    }
  }
  if (queries.length > 0 && failures === queries.length) {
    throw new Error(`Search failed for every query: ${(lastError as Error)?.message ?? String(lastError)}`);
  }
  if (failures > 0) ctx.notes.push(`${failures} of ${queries.length} search queries failed in round ${ctx.round}.`);
  ctx.metrics.sourcesDiscovered(drafts.length);
  ctx.metrics.duplicateSources(duplicates);
  return drafts;
}
