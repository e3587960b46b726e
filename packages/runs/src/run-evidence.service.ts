import { AppError, Details } from '@research/core';
import {
  findRunById,
  findRunSource,
  listHitQueries,
  listRunEvents,
  listSourceSummaries,
  type Database,
  type RunEventRow,
  type RunRow,
  type VisibleRunRead,
} from '@research/database';
import { readCheckpoint, runBudgetOf, type RunBudget, type RunNote } from '@research/pipeline';
import type { SourceSummary } from './research-reads.service';

/** Longest source id looked up; a longer one is no source of any run. */
const MAX_SOURCE_ID = 256;

/**
 * One source of a visible run with its text and hash, or 404 naming the source (also for the id of another
 * run's source).
 */
export async function getRunSourceContent(
  db: Database,
  run: VisibleRunRead,
  sourceId: string,
): Promise<{ content: string; content_sha256: string | null }> {
  const source = sourceId.length <= MAX_SOURCE_ID ? await findRunSource(db, run.id, sourceId) : undefined;
  if (!source) {
    const shown = sourceId.length <= MAX_SOURCE_ID ? sourceId : `${sourceId.slice(0, MAX_SOURCE_ID)}…`;
    throw new AppError('not_found', `Source ${shown} not found in research run ${run.id}`);
  }
  return { content: source.content, content_sha256: source.content_sha256 };
}

/** The progress events a manifest is made of: the queries sent and the URLs tried. */
export const MANIFEST_EVENT_TYPES = ['query', 'source'] as const;

/** What is stored about a run that its manifest reports. */
export interface RunRecord {
  run: RunRow;
  sources: Array<SourceSummary & { round: number }>;
  /** The run's `query` and `source` progress events, oldest first. */
  events: RunEventRow[];
  /** The queries its stored hits came from (for runs recorded before query events). */
  hitQueries: Array<{ round: number; query: string }>;
  /** Its budget: the depth's limits as the run stored them, and what it used of each. */
  budget: RunBudget;
  /** Its rounds, as its checkpoint records them. */
  rounds: number;
  /** What happened during the run that its report is written from (engines used, LLM fallbacks). */
  notes: readonly RunNote[];
}

/** Everything stored about a visible run that its manifest reports (read in parallel). */
export async function getRunRecord(db: Database, visible: VisibleRunRead): Promise<RunRecord> {
  const [run, sources, events, hitQueries] = await Promise.all([
    findRunById(db, visible.id),
    listSourceSummaries(db, visible.id),
    listRunEvents(db, visible.id, { types: MANIFEST_EVENT_TYPES }),
    listHitQueries(db, visible.id),
  ]);
  // The run was visible a moment ago; one purged meanwhile is gone like any unknown run.
  if (!run) throw new AppError('not_found', Details.runNotFound(visible.id));
  const budget = runBudgetOf(run);
  const checkpoint = readCheckpoint(run.checkpoint, budget.rounds);
  return { run, sources, events, hitQueries, budget, rounds: checkpoint.rounds, notes: checkpoint.notes ?? [] };
}
