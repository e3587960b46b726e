import type { SearchResultDraft } from '@research/core';
import {
  evidenceGraphOf,
  findGaps,
  firstRoundQueries,
  gapQueries,
  userQueries,
  type PlannedQuery,
} from '@research/engine';
import { searchResultRows, writeSearchResults } from '../step-records';
import { defineStep, type SnapshotOf, type StepContext, type StepRecordsInput } from '../steps';
import { sendQueries } from './send-queries';

/** The plan, the hits so far (queries sent, pages found), and for later rounds' gaps the claims and sources. */
type SearchReads = SnapshotOf<'plan' | 'searchResults' | 'sources' | 'claims'>;

/** Later rounds search the gaps of the evidence so far, then the planned queries round 1 had no room for. */
async function gapRoundQueries(snapshot: SearchReads, ctx: StepContext, limit: number): Promise<PlannedQuery[]> {
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
async function roundQueries(snapshot: SearchReads, ctx: StepContext): Promise<PlannedQuery[]> {
  // The fetch step's hops keep a share of the round's queries for the names the pages read give.
  const allowance = ctx.budget.queryAllowance(ctx.round, ctx.rounds);
  const limit = allowance - ctx.budget.linkReserve(allowance);
  if (ctx.round > 1) return gapRoundQueries(snapshot, ctx, limit);
  // Queries beyond round 1's share are left to the later rounds and the hops' names; those beyond what the
  // round may send at all are the budget's to report.
  const planned = firstRoundQueries(snapshot.plan!, userQueries(ctx.run.extra_queries));
  if (ctx.rounds === 1 && planned.length > allowance) {
    ctx.note({
      kind: 'budget',
      resource: 'search_queries',
      max: ctx.budget.max_search_queries,
      dropped: planned.length - allowance,
    });
  }
  return planned.slice(0, limit);
}

/** New search hits for the round, every result list's: hits of pages the run holds are dropped. */
export async function searchStep(snapshot: SearchReads, ctx: StepContext): Promise<SearchResultDraft[]> {
  if (!snapshot.plan) throw new Error('Cannot search without a plan');
  const used = ctx.budget.usage.search_queries ?? 0;
  const queries = await roundQueries(snapshot, ctx);
  // A follow-up's round 1 says what it started from: its parent's sources and claims (round 0), never fetched again.
  const inherited = snapshot.sources.filter((s) => s.round === 0).length;
  if (ctx.round === 1 && inherited > 0) {
    ctx.note({ kind: 'inherited', sources: inherited, claims: snapshot.claims.filter((c) => c.round === 0).length });
  }
  const seen = new Set(snapshot.sources.map((s) => s.url));
  const found = snapshot.searchResults.map((r) => r.url);
  const fresh = queries.length ? await sendQueries(ctx, queries, { failWhenAllFail: true, seen, found }) : [];
  ctx.note({
    kind: 'search',
    round: ctx.round,
    sent: (ctx.budget.usage.search_queries ?? 0) - used,
    hits: fresh.length,
  });
  return fresh;
}

/** Searching: the round's queries, their hits stored as the providers gave them. */
export const searchModule = defineStep({
  name: 'search',
  state: 'searching',
  reads: ['plan', 'searchResults', 'sources', 'claims'],
  compute: searchStep,
  records: (hits: SearchResultDraft[], { ctx, snapshot }: StepRecordsInput<'searchResults'>) => {
    const rows = searchResultRows(ctx.run, ctx.round, hits, snapshot);
    return { write: (trx) => writeSearchResults(trx, rows) };
  },
});
