import type { Db } from '../schema';

/** What one finished run spent, as an estimate reads it. */
export interface FinishedRunSpending {
  usage: Record<string, number>;
  source_count: number;
  started_at: Date | null;
  finished_at: Date | null;
}

/** The usage of the last `limit` completed runs of `depth`, newest first (research_runs_completed_depth_idx). */
export function listRecentCompletedRunSpending(db: Db, depth: string, limit: number): Promise<FinishedRunSpending[]> {
  return db
    .selectFrom('research_runs')
    .select(['usage', 'source_count', 'started_at', 'finished_at'])
    .where('depth', '=', depth)
    .where('state', '=', 'completed')
    .orderBy('finished_at', 'desc')
    .limit(limit)
    .execute();
}
