import type { SearchResultDraft } from '@research/core';
import type { Metrics } from '@research/observability';
import { hitUrlKey } from './hit-url-key';
import type { SearchProvider } from './search-provider';

export interface QueryBudget {
  /** The run's max_search_queries. */
  maxQueries: number;
  /** Queries the run has already sent (earlier rounds, earlier attempts). */
  used: number;
}

export interface RunSearchesInput {
  provider: SearchProvider;
  /** This round's queries in priority order; blank ones and repeats (case/space-insensitive) are skipped. */
  queries: string[];
  budget: QueryBudget;
  language: string;
  /** Hits asked of the provider per query. */
  limit: number;
  signal?: AbortSignal;
  metrics?: Pick<Metrics, 'searchQueries' | 'sourcesDiscovered' | 'duplicateSources'>;
  /** URLs the run already has (earlier rounds): hits on them count as duplicates, not discoveries. */
  knownUrls?: Iterable<string>;
}

export interface QueryFailure {
  query: string;
  message: string;
}

export interface RunSearchesResult {
  /** New, distinct hits in query order then rank order; `url` as the provider gave it (first occurrence). */
  hits: SearchResultDraft[];
  /** Queries sent to the provider (what to add to the run's usage), failures included. */
  queriesSent: number;
  /** True when the budget stopped queries from being sent (the report should say so). */
  budgetExhausted: boolean;
  /** The queries not sent because the budget ran out. */
  skippedQueries: string[];
  /** Hits dropped as duplicates (same normalised URL as an earlier hit or a known URL). */
  duplicates: number;
  /** Hits dropped because their URL is not http(s) or local. */
  invalid: number;
  failures: QueryFailure[];
  /**
   * True when queries were sent and every one failed: the step should fail with `lastError` (which names
   * the provider) after adding `queriesSent` to the run's usage, so retries stay within the budget.
   */
  allFailed: boolean;
  lastError: unknown;
}

/**
 * Runs a round's queries against the provider within the run's query budget (never more than
 * maxQueries - used are sent), one after the other, and de-duplicates the hits by normalised URL.
 * Counts search_queries_total{provider}, sources_discovered_total (distinct new URLs) and
 * duplicate_sources_total. A failing query is recorded and the others go on; provider failures never
 * throw (see `allFailed`), so the caller can always account the queries sent. An abort of `signal`
 * rejects at once with its reason.
 */
export async function runSearches(input: RunSearchesInput): Promise<RunSearchesResult> {
  const { provider, budget, metrics } = input;
  const seen = new Set<string>();
  for (const url of input.knownUrls ?? []) {
    const key = hitUrlKey(url);
    if (key) seen.add(key);
  }
  const distinct: string[] = [];
  const queryKeys = new Set<string>();
  for (const raw of input.queries) {
    const query = raw.replace(/\s+/g, ' ').trim();
    const key = query.toLowerCase();
    if (query === '' || queryKeys.has(key)) continue;
    queryKeys.add(key);
    distinct.push(query);
  }
  const allowance = Math.max(0, Math.floor(budget.maxQueries) - Math.max(0, Math.floor(budget.used)));
  const toSend = distinct.slice(0, allowance);
  const skippedQueries = distinct.slice(allowance);

  const hits: SearchResultDraft[] = [];
  const failures: QueryFailure[] = [];
  let duplicates = 0;
  let invalid = 0;
  let sent = 0;
  let lastError: unknown = null;
  for (const query of toSend) {
    input.signal?.throwIfAborted();
    sent++;
    metrics?.searchQueries(provider.name);
    try {
      const found = await provider.search(query, {
        language: input.language,
        limit: input.limit,
        signal: input.signal,
      });
      for (const hit of found) {
        const key = hitUrlKey(hit.url);
        if (!key) {
          invalid++;
          continue;
        }
        if (seen.has(key)) {
          duplicates++;
          continue;
        }
        seen.add(key);
        hits.push({
          query,
          url: hit.url,
          title: hit.title || null,
          snippet: hit.snippet || null,
          published_at: hit.published_at,
          provider: hit.provider,
          rank: hit.rank,
        });
      }
    } catch (error) {
      if (input.signal?.aborted) throw input.signal.reason ?? error;
      lastError = error;
      failures.push({ query, message: error instanceof Error ? error.message : String(error) });
    }
  }
  metrics?.sourcesDiscovered(hits.length);
  metrics?.duplicateSources(duplicates);
  return {
    hits,
    queriesSent: sent,
    budgetExhausted: skippedQueries.length > 0,
    skippedQueries,
    duplicates,
    invalid,
    failures,
    allFailed: sent > 0 && failures.length === sent,
    lastError,
  };
}
