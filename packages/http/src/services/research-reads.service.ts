import { AppError, Details } from '@research/core';
import {
  countVisibleRuns,
  findReport,
  findVisibleRun,
  listClaims,
  listEvidence,
  listSourceSummaries,
  listVisibleRuns,
  type ClaimRow,
  type Database,
  type EvidenceRow,
  type ReportRow,
  type RunListItem,
  type RunWithProtection,
} from '@research/database';
import { isUuid } from '../ids';
import type { SourceSummary } from '../presenters/research.presenter';

/** The visible run `id`, or 404 `Research run <id> not found` (also for a malformed id and a hidden run). */
export async function getVisibleRun(db: Database, id: string): Promise<RunWithProtection> {
  const run = isUuid(id) ? await findVisibleRun(db, id) : undefined;
  if (!run) throw new AppError('not_found', Details.runNotFound(id));
  return run;
}

/** One page of non-hidden runs, newest first, and their total: one count query and one page query. */
export async function listRuns(
  db: Database,
  page: { limit: number; offset: number },
): Promise<{ total: number; items: RunListItem[] }> {
  const [total, items] = await Promise.all([countVisibleRuns(db), listVisibleRuns(db, page.limit, page.offset)]);
  return { total, items };
}

/** A visible run and its sources in discovery order (without extracted text). */
export async function getRunSources(
  db: Database,
  id: string,
): Promise<{ run: RunWithProtection; sources: SourceSummary[] }> {
  const run = await getVisibleRun(db, id);
  return { run, sources: await listSourceSummaries(db, run.id) };
}

/** A visible run and its claims in extraction order. */
export async function getRunClaims(db: Database, id: string): Promise<{ run: RunWithProtection; claims: ClaimRow[] }> {
  const run = await getVisibleRun(db, id);
  return { run, claims: await listClaims(db, run.id) };
}

/** A visible run and its evidence scores, in claim order. */
export async function getRunEvidence(
  db: Database,
  id: string,
): Promise<{ run: RunWithProtection; evidence: EvidenceRow[] }> {
  const run = await getVisibleRun(db, id);
  return { run, evidence: await listEvidence(db, run.id) };
}

/** A visible run and its report row, if one was written. */
export async function getRunReport(
  db: Database,
  id: string,
): Promise<{ run: RunWithProtection; report: ReportRow | undefined }> {
  const run = await getVisibleRun(db, id);
  return { run, report: await findReport(db, run.id) };
}
