import { AppError, Details, isUuid } from '@research/core';
import { authenticateApiKeyWith, type Principal } from '@research/auth';
import {
  countFoundRuns,
  countRunsOfParent,
  countVisibleRuns,
  findRuns,
  findApiKeyAndVisibleRun,
  findReport,
  findVisibleRun,
  listClaims,
  listEvidence,
  listRunsOfParent,
  listSourceSummaries,
  listVisibleRuns,
  type ClaimRow,
  type Database,
  type EvidenceRow,
  type ReportRow,
  type RunListItem,
  type RunWithProtection,
  type VisibleRunRead,
} from '@research/database';

/** The columns of a source the public read shows (never its extracted text). */
export interface SourceSummary {
  id: string;
  url: string;
  title: string | null;
  domain: string;
  source_type: string | null;
  retrieved_at: Date;
  /** Hex SHA-256 of the source's text (GET …/sources/{source_id}/content). */
  content_sha256: string | null;
}

/** The visible run `id`, or 404 `Research run <id> not found` (also for a malformed id and a hidden run). */
export async function getVisibleRun(db: Database, id: string): Promise<RunWithProtection> {
  return visibleRunOr404(isUuid(id) ? await findVisibleRun(db, id) : undefined, id);
}

/** What the run list keeps besides its paging (extensions): a run's follow-ups, runs found by text. */
export interface RunListFilter {
  /** Only the follow-ups of this run (a UUID). */
  parentId?: string;
  /** Runs whose question or report summary hold these words, best match first. */
  text?: string;
}

/**
 * One page of non-hidden runs, newest first, and their total (from the counter the database keeps). With a
 * `filter`: the follow-ups of a run (`parentId`, a UUID), the runs whose question or report summary hold its
 * `text`, ranked by relevance, then newest first; the total counts what the filter keeps.
 */
export async function listRuns(
  db: Database,
  page: { limit: number; offset: number },
  filter: RunListFilter = {},
): Promise<{ total: number; items: RunListItem[] }> {
  const { parentId, text } = filter;
  // A malformed id has no follow-ups (the route answers it with a 422 first).
  if (parentId !== undefined && !isUuid(parentId)) return { total: 0, items: [] };
  if (text !== undefined) {
    const search = { text, ...(parentId !== undefined ? { parentId } : {}) };
    const items = await findRuns(db, search, page.limit, page.offset);
    // The page's rows carry the total; a page past the end has none to carry it.
    const total = items[0]?.total ?? (page.offset === 0 ? 0 : await countFoundRuns(db, search));
    return { total, items };
  }
  if (parentId !== undefined) {
    const [total, items] = await Promise.all([
      countRunsOfParent(db, parentId),
      listRunsOfParent(db, parentId, page.limit, page.offset),
    ]);
    return { total, items };
  }
  const [total, items] = await Promise.all([countVisibleRuns(db), listVisibleRuns(db, page.limit, page.offset)]);
  return { total, items };
}

/**
 * Authenticates the presented key and reads the visible run `id` in the same statement: the one round
 * trip of a run-scoped read. Throws the 401s of authenticateApiKey first; `run` is undefined for a
 * malformed, unknown or hidden id (the caller answers 404 with visibleRunOr404).
 */
export async function authenticateRunRead(
  db: Database,
  rawKey: string | undefined,
  id: string,
): Promise<{ principal: Principal; run: VisibleRunRead | undefined }> {
  const runId = isUuid(id) ? id : null;
  const { principal, found } = await authenticateApiKeyWith(db, rawKey, (keyId) =>
    findApiKeyAndVisibleRun(db, keyId, runId),
  );
  return { principal, run: found.run };
}

/** The run a lookup found, or 404 `Research run <id> not found` (the same answer as getVisibleRun). */
export function visibleRunOr404<R extends VisibleRunRead>(run: R | undefined, id: string): R {
  if (!run) throw new AppError('not_found', Details.runNotFound(id));
  return run;
}

/** A visible run's sources in discovery order (without extracted text). */
export function getRunSources(db: Database, run: VisibleRunRead): Promise<SourceSummary[]> {
  return listSourceSummaries(db, run.id);
}

/** A visible run's claims in extraction order. */
export function getRunClaims(db: Database, run: VisibleRunRead): Promise<ClaimRow[]> {
  return listClaims(db, run.id);
}

/** A visible run's evidence scores, in claim order. */
export function getRunEvidence(db: Database, run: VisibleRunRead): Promise<EvidenceRow[]> {
  return listEvidence(db, run.id);
}

/** A visible run's report row, if one was written. */
export function getRunReport(db: Database, run: VisibleRunRead): Promise<ReportRow | undefined> {
  return findReport(db, run.id);
}
