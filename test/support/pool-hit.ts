import type { PoolHit } from '@research/engine';

/** A search hit of the run's candidate pool: the query that found it, its rank, page and snippet. */
export function poolHit(query: string, rank: number, url: string, title: string, snippet = ''): PoolHit {
  return { query, rank, url, title, snippet, published_at: null };
}
