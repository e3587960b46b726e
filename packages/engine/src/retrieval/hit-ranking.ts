import { fuseRankings, queryKey, type SearchResultDraft } from '@research/core';
import { fusionWeight, QUESTION_DIMENSION, sentQuery, userQueries } from '../plan/queries';
import { questionNames } from '../text/names';
import { hitJudge, nameFit } from './hit-fit';

// The run's candidate pool: every hit of every query the run sent, ranked for the question before each hop of the
// fetch step (packages/pipeline/src/steps/select.ts hands it the run and the search package's page identity).

/** What the ranking reads of the run: its question, the question's language, the queries its user added. */
export interface RankedRun {
  query: string;
  language: string;
  /** As stored: the user's queries (see userQueries). */
  extra_queries: unknown;
}

/** How the pool tells pages apart, and which it leaves out. */
export interface PoolPages {
  /** The page a hit's URL names, hits of one page sharing it; null for a URL that names no page. */
  pageKey: (url: string) => string | null;
  /** Pages (by pageKey) read or tried and failed: they leave the pool. */
  exclude: ReadonlySet<string>;
}

/** A hit of the pool: as stored or as a hop found it. */
export type PoolHit = Pick<SearchResultDraft, 'query' | 'url' | 'title' | 'snippet' | 'published_at' | 'rank'>;

/** Why a query was sent, which says how much its list counts in the pool. */
export interface QueryRole {
  /** `question`: the question itself; `name`: a name the question or a read page gives; `other`: a plan's query. */
  kind: 'question' | 'name' | 'other';
  /** Its list's weight in the fusion. */
  weight: number;
  /** The name a `name` query searched (its query may add the question's words to it). */
  name?: string;
}

/** A candidate of the pool with what it is worth reading. */
export interface Candidate {
  hit: PoolHit;
  key: string;
  worth: number;
  /** Its place in the question's own result list (1 for the first), or null when that list does not hold it. */
  questionRank: number | null;
}

/**
 * How little a hit whose title and snippet hold nothing of the question (or of the name searched) keeps of its
 * fused rank: enough to be read when nothing better is left, never before a hit that speaks of the question.
 * Swept on the tune sets (0.1, 0.25, 0.5): all gold pages fetched 225, 227, 228 of 311 questions, answers in the
 * report 170, 171, 172 of 273: a tie.
 */
export const FIT_FLOOR = 0.25;

/**
 * How much the list of a name read from the page that best matches the question weighs (names from pages
 * further down weigh less, see linkingNames): as much as the question's own list (queryWeight), for the name
 * is the question's missing word. Swept on the tune sets (1, 2, 3): 1 and 3 tie (answers in the report 171 of 273
 * each, all gold pages fetched 228 and 227 of 311), 2 is worse on HotpotQA; 3 keeps a name's page ahead of the
 * question's own second-rank sibling pages. Swept again with NAME_OTHER_HITS at 0.75 (first 300 of each tune set;
 * every gold page / answer in report, HotpotQA, 2Wiki, MuSiQue): 2: 264/237, 266/163, 37/25; 3: 264/237, 269/165,
 * 38/26; 4: 260/236, 269/164, 37/26.
 */
export const LINK_WEIGHT = 3;

/**
 * The share of a name's list weight its hits other than the name's own page get (nameFit below 1: a page that
 * mentions the name, another thing of that name): a name is searched for its page, and its stray hits ("Trabbi
 * Goes to Hollywood" for "Hollywood") took the sites' slots of the question's own pages; they still count, for a
 * page naming the name may be the next step. Swept on the tune sets (first 300 of each, quick, no model; every gold
 * page read / answer in report, HotpotQA, 2Wiki, MuSiQue): 1: 261/237, 265/163, 37/26; 0.75: 264/237, 269/165,
 * 38/26; 0.5: 266/239, 269/165, 36/23; 0.25: 265/239, 267/164, 34/21. Below 0.75, MuSiQue's three- and four-step
 * questions lose the pages only a name's other hits lead to.
 */
export const NAME_OTHER_HITS = 0.75;

/**
 * The role of each query the run sent: the question (weighing most, queryWeight), the names the question holds
 * and those `names` a hop searched (with their weights, keyed by queryKey), and the others (a planner's, the
 * user's) by the share of words they add to the question (fusionWeight). Queries are matched by queryKey: the
 * search step sent them with their whitespace collapsed.
 */
export function queryRoles(
  run: RankedRun,
  queries: Iterable<string>,
  names: ReadonlyMap<string, { name: string; weight: number }>,
): Map<string, QueryRole> {
  const question = queryKey(sentQuery(run.query));
  const own = new Set(questionNames(run.query, run.language).map(queryKey));
  const user = new Set(userQueries(run.extra_queries).map(queryKey));
  const roles = new Map<string, QueryRole>();
  for (const query of queries) {
    const key = queryKey(query);
    if (roles.has(query)) continue;
    if (key === question)
      roles.set(query, {
        kind: 'question',
        weight: fusionWeight({ query, dimension: QUESTION_DIMENSION }, run.query),
      });
    else if (names.has(key)) {
      const { name, weight } = names.get(key)!;
      roles.set(query, { kind: 'name', name, weight: LINK_WEIGHT * weight });
    } else if (own.has(key)) roles.set(query, { kind: 'name', weight: 1, name: query });
    else
      roles.set(query, {
        kind: 'other',
        weight: fusionWeight({ query, dimension: user.has(key) ? 'user' : 'plan' }, run.query),
      });
  }
  return roles;
}

/**
 * Every hit of every query the run sent as one pool, best first: the queries' result lists fused by weighted
 * reciprocal rank (fuseRankings; the question's list weighs most, see queryRoles; a name's hits other than its
 * own page count NAME_OTHER_HITS of its list), each page's fused score
 * multiplied by how well its title and snippet fit the question or the name that found it (hitJudge: FIT_FLOOR
 * for nothing, up to 1 + FIT_FLOOR for all of it). Hits are pages by `pages.pageKey`; pages in `pages.exclude` (read,
 * or tried and failed) are left out.
 */
export function rankPool(
  question: string,
  hits: readonly PoolHit[],
  roles: ReadonlyMap<string, QueryRole>,
  pages: PoolPages,
): Candidate[] {
  const { exclude, pageKey } = pages;
  const byQuery = new Map<string, PoolHit[]>();
  // Read and tried pages stay in their lists (the others keep the ranks the provider gave them) and leave the pool.
  for (const hit of hits) {
    if (!pageKey(hit.url)) continue;
    byQuery.set(hit.query, [...(byQuery.get(hit.query) ?? []), hit]);
  }
  const lists = [...byQuery].map(([query, items]) => {
    const role = roles.get(query);
    const name = role?.kind === 'name' ? role.name : undefined;
    return {
      query,
      weight: role?.weight ?? 1,
      items: [...items].sort((a, b) => a.rank - b.rank),
      itemWeight: name ? (hit: PoolHit) => (nameFit(hit.title ?? '', name) >= 1 ? 1 : NAME_OTHER_HITS) : undefined,
    };
  });
  const judge = hitJudge(question, hits);
  // A page's fit: the best over the lists that hold it (a name's search counts its name).
  const fit = new Map<string, number>();
  for (const list of lists) {
    const name = roles.get(list.query)?.name ?? null;
    for (const hit of list.items) {
      const key = pageKey(hit.url)!;
      fit.set(key, Math.max(fit.get(key) ?? 0, judge.fit(hit, name)));
    }
  }
  const questionRank = new Map<string, number>();
  for (const list of lists.filter((l) => roles.get(l.query)?.kind === 'question'))
    list.items.forEach((hit, i) => {
      const key = pageKey(hit.url)!;
      questionRank.set(key, Math.min(questionRank.get(key) ?? Infinity, i + 1));
    });
  return fuseRankings(lists, (hit) => pageKey(hit.url))
    .filter(({ key }) => !exclude.has(key))
    .map(({ item, key, score }) => ({
      hit: item,
      key,
      worth: score * (FIT_FLOOR + (fit.get(key) ?? 0)),
      questionRank: questionRank.get(key) ?? null,
    }))
    .sort((a, b) => b.worth - a.worth);
}
