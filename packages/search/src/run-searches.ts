import { fuseRankings, normalizeWhitespace, queryKey, type SearchResultDraft } from '@research/core';
import type { Metrics } from '@research/observability';
import { hitUrlKey } from './hit-url-key';
import type { SearchFilter, SearchHit, SearchProvider } from './search-provider';

export interface RunSearchesInput {
  provider: SearchProvider;
  /** This round's queries in priority order; blank ones and repeats (case/space-insensitive) are skipped. */
  queries: string[];
  /**
   * Each query's weight (same order as `queries`): when given, the hits are fused across the queries
   * (weighted reciprocal rank fusion, rank-fusion.ts) and come in fused order, each under the query that
   * ranked it best; without, they come in query order then rank order, each under the first query.
   */
  weights?: readonly number[];
  /** Queries that may be sent at most (what is left of the caller's budget); the rest are skipped. */
  maxQueries: number;
  language: string;
  /** Hits asked of the provider per query. */
  limit: number;
  signal?: AbortSignal;
  /** The run's source controls, passed to the provider (which filters natively where it can). */
  filter?: SearchFilter;
  metrics?: Pick<Metrics, 'searchQueries' | 'sourcesDiscovered' | 'duplicateSources'>;
  /** URLs the run already has (earlier rounds): hits on them count as duplicates, not discoveries. */
  knownUrls?: Iterable<string>;
}

export interface QueryFailure {
  query: string;
  message: string;
}

export interface RunSearchesResult {
  /** New, distinct hits (fused order with `weights`, else query then rank order); `url` as the provider gave it. */
  hits: SearchResultDraft[];
  /**
   * Every result list as the provider gave it, query after query, each hit under its own query and rank (a page
   * two queries found is in both): what a caller ranking the lists itself reads. Hits without a valid URL are
   * left out; the run's known URLs are not.
   */
  listed: SearchResultDraft[];
  /** Queries sent to the provider (what to add to the run's usage), failures included. */
  queriesSent: number;
  /** Those queries, in the order they were sent. */
  sent: string[];
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
 * Runs a round's queries against the provider, never more than `maxQueries` of them (the caller's budget
 * decides how many), one after the other, and de-duplicates the hits by normalised URL.
 * Counts search_queries_total{provider}, sources_discovered_total (distinct new URLs) and
 * duplicate_sources_total. A failing query is recorded and the others go on; provider failures never
 * throw (see `allFailed`), so the caller can always account the queries sent. An abort of `signal`
 * rejects at once with its reason.
 */
export async function runSearches(input: RunSearchesInput): Promise<RunSearchesResult> {
  const { provider, metrics } = input;
  const distinct = distinctQueries(input.queries, input.weights);
  const allowance = Math.max(0, Math.floor(input.maxQueries));
  const toSend = distinct.slice(0, allowance);
  const skippedQueries = distinct.slice(allowance).map((q) => q.query);

  const lists: Array<{ query: string; weight: number; items: SearchHit[] }> = [];
  const failures: QueryFailure[] = [];
  let lastError: unknown = null;
  for (const { query, weight } of toSend) {
    input.signal?.throwIfAborted();
    metrics?.searchQueries(provider.name);
    try {
      const found = await provider.search(query, {
        language: input.language,
        limit: input.limit,
        signal: input.signal,
        ...(input.filter ? { filter: input.filter } : {}),
      });
      lists.push({ query, weight, items: found });
    } catch (error) {
      if (input.signal?.aborted) throw input.signal.reason ?? error;
      lastError = error;
      failures.push({ query, message: error instanceof Error ? error.message : String(error) });
    }
  }
  const tally: HitTally = { seen: urlKeys(input.knownUrls ?? []), hits: [], duplicates: 0, invalid: 0 };
  const ordered = orderedHits(lists, input.weights !== undefined);
  for (const [query, hit] of ordered.pairs) addHit(tally, query, hit);
  tally.duplicates += ordered.merged;
  metrics?.sourcesDiscovered(tally.hits.length);
  metrics?.duplicateSources(tally.duplicates);
  const listed = lists.flatMap((list) =>
    list.items.filter((hit) => hitUrlKey(hit.url) !== null).map((hit) => draftOf(list.query, hit)),
  );
  return {
    hits: tally.hits,
    listed,
    queriesSent: toSend.length,
    sent: toSend.map((q) => q.query),
    budgetExhausted: skippedQueries.length > 0,
    skippedQueries,
    duplicates: tally.duplicates,
    invalid: tally.invalid,
    failures,
    allFailed: toSend.length > 0 && failures.length === toSend.length,
    lastError,
  };
}

/**
 * The round's queries with blanks and repeats (case- and space-insensitive) left out, in order, each with
 * its weight (`weights` in the same order as `queries`; 1 without).
 */
function distinctQueries(
  queries: readonly string[],
  weights: readonly number[] | undefined,
): Array<{ query: string; weight: number }> {
  const distinct = new Map<string, { query: string; weight: number }>();
  queries.forEach((raw, i) => {
    const query = normalizeWhitespace(raw);
    const key = queryKey(query);
    if (query !== '' && !distinct.has(key)) distinct.set(key, { query, weight: weights?.[i] ?? 1 });
  });
  return [...distinct.values()];
}

function urlKeys(urls: Iterable<string>): Set<string> {
  const keys = new Set<string>();
  for (const url of urls) {
    const key = hitUrlKey(url);
    if (key) keys.add(key);
  }
  return keys;
}

/** The round's hits so far, and the normalised URLs they and the run's earlier sources hold. */
interface HitTally {
  seen: Set<string>;
  hits: SearchResultDraft[];
  duplicates: number;
  invalid: number;
}

/**
 * The round's hits, each with the query it is kept under: fused across the queries, or query by query.
 * `merged`: hits fusion folded into another query's hit of the same URL (duplicates).
 */
function orderedHits(
  lists: ReadonlyArray<{ query: string; weight: number; items: SearchHit[] }>,
  fuse: boolean,
): { pairs: Array<[string, SearchHit]>; merged: number } {
  const ranked = lists.map((list) => ({
    weight: list.weight,
    items: list.items.map((hit): [string, SearchHit] => [list.query, hit]),
  }));
  const all = ranked.flatMap((list) => list.items);
  if (!fuse) return { pairs: all, merged: 0 };
  const keyOf = ([, hit]: [string, SearchHit]) => hitUrlKey(hit.url);
  const fused = fuseRankings(ranked, keyOf).map((f) => f.item);
  // Hits without a valid URL are not fused; they are still counted as invalid.
  const invalid = all.filter((pair) => keyOf(pair) === null);
  return { pairs: [...fused, ...invalid], merged: all.length - invalid.length - fused.length };
}

function addHit(tally: HitTally, query: string, hit: SearchHit): void {
  const key = hitUrlKey(hit.url);
  if (!key) tally.invalid++;
  else if (tally.seen.has(key)) tally.duplicates++;
  else {
    tally.seen.add(key);
    tally.hits.push(draftOf(query, hit));
  }
}

function draftOf(query: string, hit: SearchHit): SearchResultDraft {
  return {
    query,
    url: hit.url,
    title: hit.title || null,
    snippet: hit.snippet || null,
    published_at: hit.published_at,
    provider: hit.provider,
    rank: hit.rank,
  };
}
