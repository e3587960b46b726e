import type { SearchResultRow } from '@research/database';
import type { RunSnapshot, StepContext } from '../steps';

/** What a round reads: its hits not fetched yet, best-ranked first, and the sources the run may hold after it. */
export interface Selection {
  hits: SearchResultRow[];
  /** max_sources for this round: the sources already kept plus the round's share of the room left. */
  maxSources: number;
}

/** Interleaves hits by rank (every query's first hit, then every second hit…), in stored order. */
function byRank(hits: SearchResultRow[]): SearchResultRow[] {
  return [...hits].sort((a, b) => a.rank - b.rank || a.position - b.position);
}

/**
 * Chooses the hits the fetch step reads this round and how many sources it may keep: the part of fetching
 * that decides, apart from the part that downloads. Empty when the round has no share of max_sources left.
 */
export function selectHits(snapshot: RunSnapshot, ctx: Pick<StepContext, 'budget' | 'round' | 'rounds'>): Selection {
  const known = snapshot.sources;
  const knownUrls = new Set(known.map((s) => s.url));
  const allowance = ctx.budget.sourceAllowance(known.length, ctx.round, ctx.rounds);
  const maxSources = Math.min(ctx.budget.max_sources, known.length + Math.max(0, allowance));
  if (allowance <= 0) return { hits: [], maxSources };
  const hits = byRank(snapshot.searchResults.filter((r) => r.round === ctx.round && !knownUrls.has(r.url)));
  return { hits, maxSources };
}
