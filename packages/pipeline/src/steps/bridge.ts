import type { SearchResultDraft, SourceDraft } from '@research/core';
import type { SearchResultRow } from '@research/database';
import { planBridge, snippetQueries } from '@research/engine';
import type { RunSnapshot, StepContext } from '../steps';
import { sendQueries } from './send-queries';

/** Names a hop searched and the hits of URLs the run had not seen, in fused order. */
export interface NamesSearched {
  queries: string[];
  hits: SearchResultDraft[];
}

const NONE: NamesSearched = { queries: [], hits: [] };

/** Searches the names not searched before in the run (or by `before`); a provider failure costs the hop only. */
async function searchNames(
  snapshot: RunSnapshot,
  ctx: StepContext,
  names: readonly string[],
  options: { seen: ReadonlySet<string>; before: NamesSearched },
): Promise<NamesSearched> {
  const asked = new Set(
    [...snapshot.searchResults.map((r) => r.query), ...options.before.queries].map((q) => q.toLowerCase()),
  );
  const queries = names.filter((q) => !asked.has(q.toLowerCase()));
  if (queries.length === 0) return NONE;
  const hits = await sendQueries(
    ctx,
    queries.map((query) => ({ query, dimension: 'bridge' })),
    { failWhenAllFail: false, seen: options.seen },
  );
  return { queries, hits };
}

/**
 * The names the snippets of the round's best hits give ("... was a psychology professor at Columbia
 * University" under the top hit), searched before any page is read with the queries the round's allowance
 * has to spare beyond the second hop's reserve: the page of such a name can then be read in the first hop,
 * before its site has given its few pages (max_pages_per_domain) to others. Names as snippetQueries finds them
 * (no model call: a snippet is a couple of sentences).
 */
export async function snippetHop(
  snapshot: RunSnapshot,
  ctx: StepContext,
  hits: ReadonlyArray<Pick<SearchResultRow, 'title' | 'snippet'>>,
  seen: ReadonlySet<string>,
): Promise<NamesSearched> {
  const spare =
    ctx.budget.queryAllowance(ctx.round, ctx.rounds) - ctx.budget.bridgeReserve(ctx.budget.max_search_queries);
  if (spare < 1) return NONE;
  const sources = hits.map((h) => ({ title: h.title, content: h.snippet ?? '' }));
  const input = { question: ctx.run.query, language: ctx.run.language, sources, limit: spare };
  const titles = [...snapshot.searchResults, ...snapshot.sources].map((h) => h.title);
  return searchNames(snapshot, ctx, await snippetQueries(input, titles), { seen, before: NONE });
}

/**
 * The second hop of a round: reads the pages the round has read so far (`read`, best-ranked first) for the
 * names the question needs but does not give (the LLM names them when there is one, see planBridge), and
 * searches them within what the round's query allowance left (the search step kept the budget's bridge
 * reserve for it); names the snippet hop (`early`) searched are not searched again. Records the round's
 * bridge, both hops' names. Returns the hits of URLs the run has not seen, in fused order; a provider
 * failure here costs the hop, never the run.
 */
export async function bridgeHop(
  snapshot: RunSnapshot,
  ctx: StepContext,
  read: ReadonlyArray<Pick<SourceDraft, 'title' | 'content'>>,
  options: { seen: ReadonlySet<string>; early: NamesSearched },
): Promise<SearchResultDraft[]> {
  const limit = Math.min(
    ctx.budget.queryAllowance(ctx.round, ctx.rounds),
    ctx.budget.bridgeReserve(ctx.budget.max_search_queries),
  );
  const input = { question: ctx.run.query, language: ctx.run.language, sources: read, limit };
  const chosen = await planBridge(ctx.services.llm, ctx, input);
  if (chosen.fallback) {
    ctx.logger.warn('LLM second-hop planning failed; using the names the pages give', {
      reason: chosen.fallbackReason,
    });
    ctx.record({ kind: 'fallback', step: 'bridge', round: ctx.round, reason: chosen.fallback, count: 1 });
  }
  const { early } = options;
  const late = await searchNames(snapshot, ctx, chosen.queries, { seen: options.seen, before: early });
  const queries = [...early.queries, ...late.queries];
  if (queries.length > 0) {
    ctx.record({ kind: 'bridge', round: ctx.round, queries, hits: early.hits.length + late.hits.length });
  }
  return late.hits;
}
