import type { SearchResultDraft } from '@research/core';
import {
  evidenceGraphOf,
  findGaps,
  firstRoundQueries,
  gapQueries,
  userQueries,
  type PlannedQuery,
} from '@research/engine';
import { runSearches } from '@research/search';
import type { RunSnapshot, StepContext } from '../steps';

/** Hits asked per query: enough to fill the source budget over the round's queries, between 3 and 10. */
function hitsPerQuery(maxSources: number, queries: number): number {
  return Math.min(10, Math.max(3, Math.ceil(maxSources / Math.max(1, queries)) + 1));
}

/** Later rounds search the gaps of the evidence so far, then the planned queries round 1 had no room for. */
async function gapRoundQueries(snapshot: RunSnapshot, ctx: StepContext, limit: number): Promise<PlannedQuery[]> {
  const plan = snapshot.plan!;
  const planned = firstRoundQueries(plan, userQueries(ctx.run.extra_queries));
  const graph = await evidenceGraphOf(snapshot.claims, snapshot.sources);
  const sent = new Set([
    ...snapshot.searchResults.map((r) => r.query),
    ...planned.slice(0, ctx.budget.queryAllowance(1, ctx.rounds, 0)).map((q) => q.query),
  ]);
  const queries = gapQueries({
    gaps: findGaps(plan, ctx.run.query, graph),
    plan,
    query: ctx.run.query,
    language: ctx.run.language,
    sent,
    limit,
  });
  if (queries.length >= limit) return queries;
  const leftover = planned.filter((q) => !sent.has(q.query) && !queries.some((x) => x.query === q.query));
  return [...queries, ...leftover].slice(0, limit);
}

/** The round's queries within its share of max_search_queries. */
async function roundQueries(snapshot: RunSnapshot, ctx: StepContext): Promise<PlannedQuery[]> {
  const limit = ctx.budget.queryAllowance(ctx.round, ctx.rounds);
  if (ctx.round > 1) return gapRoundQueries(snapshot, ctx, limit);
  const queries = firstRoundQueries(snapshot.plan!, userQueries(ctx.run.extra_queries));
  // Queries beyond round 1's share are left to the later rounds; with one round the search cuts at the
  // budget and notes what it did not send.
  return ctx.rounds > 1 ? queries.slice(0, limit) : queries;
}

/**
 * Sends the queries through the configured provider within the run's query budget (persisted usage, so it
 * holds across rounds and resumes) and records budgets that ran out and queries that failed.
 */
async function sendQueries(ctx: StepContext, queries: readonly PlannedQuery[]): Promise<SearchResultDraft[]> {
  const result = await runSearches({
    provider: ctx.services.searchProvider,
    queries: queries.map((q) => q.query),
    maxQueries: ctx.budget.remaining('search_queries'),
    language: ctx.run.language,
    limit: hitsPerQuery(ctx.budget.max_sources, queries.length),
    signal: ctx.signal,
    // The step counts the discovered sources (new to the run, earlier rounds included); counted here as
    // well, every discovery would count twice.
    metrics: {
      searchQueries: (provider, count) => ctx.metrics.searchQueries(provider, count),
      duplicateSources: (count) => ctx.metrics.duplicateSources(count),
      sourcesDiscovered: () => undefined,
    },
  });
  ctx.budget.take('search_queries', result.queriesSent);
  if (result.budgetExhausted) {
    ctx.record({
      kind: 'budget',
      resource: 'search_queries',
      max: ctx.budget.max_search_queries,
      dropped: result.skippedQueries.length,
    });
  }
  if (result.failures.length > 0) {
    ctx.record({
      kind: 'search_failures',
      round: ctx.round,
      failed: result.failures.length,
      total: result.queriesSent,
    });
  }
  if (result.allFailed) throw result.lastError;
  return result.hits;
}

/** New search hits for the round: hits of URLs the run already found are dropped. */
export async function searchStep(snapshot: RunSnapshot, ctx: StepContext): Promise<SearchResultDraft[]> {
  if (!snapshot.plan) throw new Error('Cannot search without a plan');
  const used = ctx.budget.usage.search_queries ?? 0;
  const queries = await roundQueries(snapshot, ctx);
  const drafts = queries.length ? await sendQueries(ctx, queries) : [];
  const seen = new Set(snapshot.searchResults.map((r) => r.url));
  const fresh = drafts.filter((d) => !seen.has(d.url) && seen.add(d.url));
  ctx.metrics.sourcesDiscovered(fresh.length);
  ctx.metrics.duplicateSources(drafts.length - fresh.length);
  ctx.record({
    kind: 'search',
    round: ctx.round,
    sent: (ctx.budget.usage.search_queries ?? 0) - used,
    hits: fresh.length,
  });
  return fresh;
}
