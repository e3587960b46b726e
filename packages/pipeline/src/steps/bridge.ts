import { queryKey, type SearchResultDraft, type SourceDraft } from '@research/core';
import { planBridge, subjectKey } from '@research/engine';
import type { StepContext } from '../steps';
import { sendQueries } from './send-queries';

/** Names a hop searched, each with the query that searched it and its weight in the pool, and their hits. */
export interface NamesSearched {
  names: Array<{ name: string; query: string; weight: number }>;
  hits: SearchResultDraft[];
}

/**
 * One hop's names: read from the pages the run holds (`read`, in the order it read them) for the names the
 * question needs but does not give (the LLM names them when there is one, see planBridge), the ones not
 * searched before in the run (`asked`) searched within `limit` queries. A provider failure here costs the hop,
 * never the run. Records the names in a `bridge` event.
 */
export async function searchLinkingNames(
  ctx: StepContext,
  read: ReadonlyArray<Pick<SourceDraft, 'title' | 'content'>>,
  options: { seen: ReadonlySet<string>; found: Iterable<string>; asked: ReadonlySet<string>; limit: number },
): Promise<NamesSearched> {
  const remaining = ctx.budget.remaining('search_queries');
  if (options.limit < 1 || read.length === 0) return { names: [], hits: [] };
  const searched = new Set([...options.asked].map(subjectKey));
  const input = { question: ctx.run.query, language: ctx.run.language, sources: read, searched, limit: options.limit };
  if (remaining < 1) {
    // The run's search budget is spent: the names the pages give are counted as not searched (no model is asked).
    const unsearched = await planBridge(null, ctx, input);
    if (unsearched.queries.length > 0) {
      ctx.note({
        kind: 'budget',
        resource: 'search_queries',
        max: ctx.budget.max_search_queries,
        dropped: unsearched.queries.length,
      });
    }
    return { names: [], hits: [] };
  }
  const chosen = await planBridge(ctx.services.llm, ctx, { ...input, limit: Math.min(options.limit, remaining) });
  if (chosen.fallback) {
    ctx.logger.warn('LLM next-hop planning failed; using the names the pages give', {
      reason: chosen.fallbackReason,
    });
    ctx.note({ kind: 'fallback', step: 'bridge', round: ctx.round, reason: chosen.fallback, count: 1 });
  }
  const names = chosen.queries
    .filter((q) => !options.asked.has(queryKey(q.query)))
    .map((q) => ({ name: q.name, query: q.query, weight: q.weight }));
  if (names.length === 0) return { names: [], hits: [] };
  const hits = await sendQueries(
    ctx,
    names.map(({ query }) => ({ query, dimension: 'bridge' })),
    { failWhenAllFail: false, seen: options.seen, found: options.found },
  );
  ctx.note({ kind: 'bridge', round: ctx.round, queries: names.map((n) => n.query), hits: hits.length });
  return { names, hits };
}
