import { isCollectionUrl, registrableDomain } from '@research/core';
import {
  queryRoles as rolesOfQueries,
  rankPool as rankHits,
  type Candidate,
  type PoolHit,
  type QueryRole,
} from '@research/engine';
import { hitUrlKey, isLocalUrl } from '@research/search';
import type { StepContext } from '../steps';

// The fetch step's candidate pool. Its ranking is the engine's (retrieval/hit-ranking.ts); what a step adds is its
// run and the search package's rules: which URLs are one page (hitUrlKey) and that the local corpus is no site.

export type { Candidate, PoolHit, QueryRole };

/** The role of each query the run sent (the engine's queryRoles, for the step's run). */
export function queryRoles(
  ctx: Pick<StepContext, 'run'>,
  queries: Iterable<string>,
  names: ReadonlyMap<string, { name: string; weight: number }>,
): Map<string, QueryRole> {
  return rolesOfQueries(ctx.run, queries, names);
}

/**
 * Every hit of every query the run sent as one pool, best first (the engine's rankPool, pages told apart by
 * hitUrlKey). Pages in `exclude` (read, or tried and failed) are left out.
 */
export function rankPool(
  ctx: Pick<StepContext, 'run'>,
  hits: readonly PoolHit[],
  roles: ReadonlyMap<string, QueryRole>,
  exclude: ReadonlySet<string>,
): Candidate[] {
  return rankHits(ctx.run.query, hits, roles, { pageKey: hitUrlKey, exclude });
}

/**
 * The next `count` candidates to read, in the pool's order, skipping pages of sites that hold as many pages as
 * `pagesOfSite` allows the candidate already (`perSite`, the run's sources and those chosen before them; the local
 * corpus is no site).
 */
export function nextCandidates(
  pool: readonly Candidate[],
  count: number,
  perSite: ReadonlyMap<string, number>,
  pagesOfSite: (candidate: Candidate) => number,
): Candidate[] {
  const taken = new Map(perSite);
  const out: Candidate[] = [];
  for (const candidate of pool) {
    if (out.length >= count) break;
    // Documents of the local corpus and of collections are no site's pages.
    if (!isLocalUrl(candidate.hit.url) && !isCollectionUrl(candidate.hit.url)) {
      const site = registrableDomain(candidate.hit.url);
      if ((taken.get(site) ?? 0) >= pagesOfSite(candidate)) continue;
      taken.set(site, (taken.get(site) ?? 0) + 1);
    }
    out.push(candidate);
  }
  return out;
}
