/** Runs per page of the Runs list. */
export const RUNS_PER_PAGE = 10;

/** How many pages `total` items fill; an empty list still has its one (empty) page. */
export function pageCount(total: number, perPage = RUNS_PER_PAGE): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** The `offset` and `limit` that ask the API for page `page` (counted from 1). */
export function pageWindow(page: number, perPage = RUNS_PER_PAGE): { offset: number; limit: number } {
  return { offset: (Math.max(1, page) - 1) * perPage, limit: perPage };
}
