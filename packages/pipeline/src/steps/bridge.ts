import type { SearchResultDraft, SourceDraft } from '@research/core';
import { planBridge } from '@research/engine';
import type { RunSnapshot, StepContext } from '../steps';
import { sendQueries } from './send-queries';

/**
 * The second hop of a round: reads the pages the round has read so far (`read`, best-ranked first) for the
 * names the question needs but does not give (the LLM names them when there is one, see planBridge), and searches them within what the round's query allowance
 * left (the search step kept the budget's bridge reserve for it). Returns the hits of URLs the run has not
 * seen, in fused order; a provider failure here costs the hop, never the run.
 */
export async function bridgeHop(
  snapshot: RunSnapshot,
  ctx: StepContext,
  read: ReadonlyArray<Pick<SourceDraft, 'title' | 'content'>>,
  seen: ReadonlySet<string>,
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
  const names = chosen.queries;
  const asked = new Set(snapshot.searchResults.map((r) => r.query.toLowerCase()));
  const queries = names.filter((q) => !asked.has(q.toLowerCase())).map((query) => ({ query, dimension: 'bridge' }));
  if (queries.length === 0) return [];
  const fresh = await sendQueries(ctx, queries, { failWhenAllFail: false, seen });
  ctx.record({ kind: 'bridge', round: ctx.round, queries: queries.map((q) => q.query), hits: fresh.length });
  return fresh;
}
