/**
 * Weighted reciprocal rank fusion: each list gives an item `weight / (k + rank)` (times the item's own share,
 * `itemWeight`, when the list gives one), an item's score is the sum over the lists that hold it, and the fused
 * list is ordered by score (ties: the earlier list, then the better rank). An item found by several queries rises
 * above one found by a single query at the same ranks; a list of weight 2 counts as two lists. `k` damps the
 * difference between ranks (a small k favours top ranks). Items are matched by `key`; items whose key is null
 * are left out.
 */
export interface RankedList<T> {
  readonly weight: number;
  /** In rank order, best first. */
  readonly items: readonly T[];
  /** The share of the list's weight an item gets (1 without): a list may count some of its items less. */
  readonly itemWeight?: (item: T) => number;
}

export interface FusedItem<T> {
  /** The item as the list that ranked it best (by contribution) gave it. */
  readonly item: T;
  readonly key: string;
  readonly score: number;
}

/**
 * Ranks compared at this damping: rank 1 weighs 2× rank 11 (RRF's usual 60 would make ranks 1 and 10 almost equal).
 * Swept for the run's pool on the tune parts (first 300 of each, quick, no model; every gold page read / answer in
 * report / in the first sentence, HotpotQA, 2Wiki, MuSiQue): 2: 267/240/143, 268/165/133, 39/26/12; 4: 268/241/144,
 * 267/165/134, 39/26/12; 10: 268/242/141, 268/166/133, 38/26/12; 20: 267/241/140, 266/165/132, 38/26/11. Flat
 * between 2 and 10. Scoring an item by its best list instead of the sum over lists (CombMAX) read fewer of
 * MuSiQue's pages (38 → 35 of 61, six questions each losing a page, none gaining): a page several names lead
 * to is often the next step.
 */
export const FUSION_K = 10;

interface Entry<T> {
  item: T;
  key: string;
  score: number;
  best: number;
  order: number;
}

export function fuseRankings<T>(
  lists: ReadonlyArray<RankedList<T>>,
  key: (item: T) => string | null,
  k = FUSION_K,
): Array<FusedItem<T>> {
  const entries = new Map<string, Entry<T>>();
  let order = 0;
  for (const list of lists) {
    list.items.forEach((item, index) => {
      const id = key(item);
      if (id === null) return;
      const contribution = (list.weight * (list.itemWeight?.(item) ?? 1)) / (k + index + 1);
      const entry = entries.get(id);
      if (!entry) {
        entries.set(id, { item, key: id, score: contribution, best: contribution, order: order++ });
        return;
      }
      entry.score += contribution;
      if (contribution > entry.best) {
        entry.best = contribution;
        entry.item = item;
      }
    });
  }
  return [...entries.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ item, key: id, score }) => ({ item, key: id, score }));
}
