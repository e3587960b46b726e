import crypto from 'node:crypto';
import {
  AppError,
  Details,
  isRunning,
  isUuid,
  MAX_CLAIMS_PER_RUN,
  MAX_CLAIMS_PER_SOURCE,
  planSchema,
  registrableDomain,
  type ClaimDraft,
  type LlmFailureKind,
  type Plan,
  type SourceDraft,
} from '@research/core';
import { mayManage, type Principal } from '@research/auth';
import { classifySourceType, normalizeCrawlUrl, toSourceDraft } from '@research/crawler';
import {
  countClaimRelations,
  countRows,
  deleteClaimGraph,
  findRunById,
  findRunForEdit,
  findRunSource,
  listClaimClusters,
  listClaimRelations,
  listClaims,
  listEvidence,
  listSources,
  nextRunPositions,
  refreshRunCounts,
  type ClaimClusterRow,
  type ClaimRelationRow,
  type ClaimRow,
  type Database,
  type Db,
  type EvidenceRow,
  type ReportRow,
  type RunRow,
  type SourceRow,
} from '@research/database';
import {
  claimGraphRows,
  claimRows,
  writeComparison,
  readSnapshot,
  reportRecord,
  runStepOnRun,
  stepModule,
  sourceRow,
  writeClaimGraph,
  writeClaims,
  writeReport,
  writeSources,
  type OutsideLoop,
  type RunNote,
} from '@research/pipeline';
import type { RequestScope } from './scope';
import { fetchOne } from './crawler.service';
import type { RunsContext } from './context';

type Ctx = Pick<RunsContext, 'db' | 'metrics' | 'tools'>;

/** One request on a run of the mounted analysis routes: who asks, about which run, with what. */
export interface RunRequest {
  ctx: Ctx;
  scope: RequestScope;
  /** The run's id as the path gave it. */
  id: string;
  signal: AbortSignal;
}

type LlmFallbackReason = LlmFailureKind;

/** The 409 of a write to a run the pipeline still works on. */
export function runStillRunning(id: string): AppError {
  return new AppError(
    'conflict',
    `Research run ${id} is still running; its claims, evidence and report can be changed once it has ended.`,
  );
}

/**
 * The checks of a write under /research/{id}, in /v1's order: unknown, malformed or hidden is 404, a
 * caller who is neither the owner nor an administrator 403, a run still running 409.
 */
async function checkEditable(db: Db, id: string, actor: Principal, lock: boolean) {
  const run = isUuid(id) ? await findRunForEdit(db, id, { lock }) : undefined;
  if (!run || run.is_hidden) throw new AppError('not_found', Details.runNotFound(id));
  if (!mayManage(run.manager_user_id, actor)) throw new AppError('forbidden', Details.notOwner);
  if (isRunning(run.state)) throw runStillRunning(id);
  return run;
}

/** Runs `edit` in a transaction holding the run's row lock, after the write checks passed again. */
function inEditTransaction<T>(
  ctx: Pick<Ctx, 'db'>,
  id: string,
  actor: Principal,
  edit: (trx: Db, run: RunRow) => Promise<T>,
): Promise<T> {
  return ctx.db.transaction().execute(async (trx) => {
    await checkEditable(trx, id, actor, true);
    const run = await findRunById(trx, id);
    return edit(trx, run!);
  });
}

function planOf(run: Pick<RunRow, 'plan'>): Plan | null {
  const parsed = run.plan ? planSchema.safeParse(run.plan) : undefined;
  return parsed?.success ? parsed.data : null;
}

/** What a step run by the request uses: the routes' services, the caller's logger, the request's signal. */
function outsideLoop(req: RunRequest): OutsideLoop {
  return {
    services: req.ctx.tools.researchServices(),
    logger: req.scope.logger,
    metrics: req.ctx.metrics,
    signal: req.signal,
  };
}

/** The LLM fallbacks among a step's events, in the order they were recorded. */
function fallbacksOf(events: readonly RunNote[]): Array<{ reason: LlmFallbackReason; count: number }> {
  return events.flatMap((e) =>
    e.kind === 'fallback' ? [{ reason: e.reason as LlmFallbackReason, count: e.count }] : [],
  );
}

export type ClaimsInput =
  | { source_id: string; language?: string }
  | { text: string; url: string; title?: string | null; language?: string }
  | { fetch_url: string; title?: string | null; language?: string };

export interface ClaimsResult {
  runId: string;
  sourceId: string;
  claims: ClaimRow[];
  created: number;
  /** Whether a new source was stored (text, or a page the run did not have yet). */
  sourceCreated: boolean;
  mode: 'llm' | 'extractive' | 'mixed';
  /** Passages read by the extractive engine because the LLM failed for them, by reason. */
  fallbacks: Array<[LlmFallbackReason, number]>;
  /** LLM claims dropped because their span is not in the text. */
  ungrounded: number;
  /** New claims not stored because the source or the run holds its limit of claims. */
  overLimit: number;
}

/**
 * The 409 of a claims request none of whose new claims fit: the run holds MAX_CLAIMS_PER_RUN claims, or
 * (`sourceId`) the source holds MAX_CLAIMS_PER_SOURCE.
 */
function claimLimitReached(runId: string, sourceId?: string): AppError {
  return new AppError(
    'conflict',
    sourceId
      ? `Source ${sourceId} of research run ${runId} already holds its limit of ${MAX_CLAIMS_PER_SOURCE} claims; no claims were added.`
      : `Research run ${runId} already holds its limit of ${MAX_CLAIMS_PER_RUN} claims; no claims were added.`,
  );
}

function crawlUrlOf(url: string): string {
  try {
    return normalizeCrawlUrl(url);
  } catch {
    throw new AppError('validation', 'url: must be an http or https URL');
  }
}

/** A source as a claims request brings it: new to the run (`isNew`), or one the run has. */
type RequestedSource = { source: SourceRow; isNew: boolean };

/** The source a `{url}` request reads: the run's own source of that page, or the page fetched now. */
async function sourceOfPage(
  req: RunRequest,
  run: RunRow,
  input: { fetch_url: string; title?: string | null; language?: string },
  round: number,
): Promise<RequestedSource> {
  const url = crawlUrlOf(input.fetch_url);
  const known = (await listSources(req.ctx.db, run.id)).find((s) => s.url === url);
  if (known) return { source: known, isNew: false };
  // The pipeline's crawler: SSRF guard (after DNS, on every redirect), robots.txt, byte cap, page cache;
  // counted in the caller's share of outbound work (429 over it). An unreadable page is a 422 on `url`.
  const document = await fetchOne(req.ctx.tools, req.scope.actor.userId, { url, language: input.language }, req.signal);
  if (!document.content.trim()) throw new AppError('validation', 'url: empty: the page has no readable text');
  const redirected = (await listSources(req.ctx.db, run.id)).find((s) => s.url === document.url);
  if (redirected) return { source: redirected, isNew: false };
  const draft = toSourceDraft(document);
  return {
    source: sourceRow(run, { round, position: 0 }, { ...draft, title: input.title ?? draft.title }, new Date()),
    isNew: true,
  };
}

/** The source of a `{text, url}` request: always new to the run. */
function sourceOfText(
  run: RunRow,
  input: { text: string; url: string; title?: string | null; language?: string },
  round: number,
): RequestedSource {
  const url = crawlUrlOf(input.url);
  const draft: SourceDraft = {
    id: crypto.randomUUID(),
    url,
    title: input.title ?? null,
    domain: registrableDomain(url),
    source_type: classifySourceType(url),
    retrieved_at: new Date().toISOString(),
    content: input.text,
    published_at: null,
    language: input.language ?? null,
  };
  return { source: sourceRow(run, { round, position: 0 }, draft, new Date()), isNew: true };
}

async function requestedSource(req: RunRequest, run: RunRow, input: ClaimsInput): Promise<RequestedSource> {
  if ('source_id' in input) {
    const found = await findRunSource(req.ctx.db, run.id, input.source_id);
    if (!found) throw new AppError('validation', `source_id: the run has no source ${input.source_id}`);
    return { source: found, isNew: false };
  }
  // A new source joins the run's last round (its position is taken under the run's lock).
  const round = Math.max(1, (await nextRunPositions(req.ctx.db, run.id)).round);
  return 'fetch_url' in input ? sourceOfPage(req, run, input, round) : sourceOfText(run, input, round);
}

/** What the analyze step said about its engines: which read the passages, its fallbacks, claims dropped. */
function analysisOf(events: readonly RunNote[]): Pick<ClaimsResult, 'mode' | 'fallbacks' | 'ungrounded'> {
  const engine = events.find((e) => e.kind === 'engine');
  return {
    mode: engine?.kind === 'engine' ? (engine.mode as ClaimsResult['mode']) : 'extractive',
    fallbacks: fallbacksOf(events).map((f) => [f.reason, f.count]),
    ungrounded: events.reduce((n, e) => n + (e.kind === 'ungrounded' ? e.count : 0), 0),
  };
}

/**
 * Stores a claims request's new source and claims under the run's lock: claims the run already has are
 * skipped, the rest cut at the caps; 409 when none fits (and then the new source is not stored either).
 */
function storeClaims(req: RunRequest & { input: ClaimsInput }, requested: RequestedSource, drafts: ClaimDraft[]) {
  return inEditTransaction(req.ctx, req.id, req.scope.actor, async (trx, run) => {
    let { source } = requested;
    if (requested.isNew) {
      const positions = await nextRunPositions(trx, run.id);
      // A concurrent request may have stored the same page meanwhile (both fetched it before the lock).
      if ('fetch_url' in req.input && (await listSources(trx, run.id)).some((s) => s.url === source.url)) {
        throw new AppError(
          'conflict',
          `url: another request stored ${source.url} for this run meanwhile; send it again.`,
        );
      }
      source = { ...source, round: Math.max(1, positions.round), position: positions.source };
      await writeSources(trx, [source]);
    }
    const claims = await listClaims(trx, run.id);
    const held = new Set(claims.map((c) => c.id));
    const snapshot = { plan: null, searchResults: [], sources: [source], claims, evidence: [] };
    const { rows, overLimit } = claimRows(
      run,
      source.round,
      drafts.filter((d) => !held.has(d.id)),
      snapshot,
    );
    if (rows.length === 0 && overLimit > 0) {
      throw claims.length >= MAX_CLAIMS_PER_RUN ? claimLimitReached(run.id) : claimLimitReached(run.id, source.id);
    }
    if (rows.length > 0) {
      await writeClaims(trx, rows);
      await deleteClaimGraph(trx, run.id);
    }
    await refreshRunCounts(trx, run.id);
    const ids = new Set(drafts.map((c) => c.id));
    return {
      source,
      claims: (await listClaims(trx, run.id)).filter((c) => ids.has(c.id)),
      created: rows.length,
      overLimit,
    };
  });
}

/**
 * Extracts claims from one of the run's sources, from given text with its URL (stored as a new source
 * of the run), or from a page fetched by URL through the pipeline's crawler (stored as a new source,
 * unless the run already has that page: then its stored text is read again), with the pipeline's analyze
 * step, and appends the new ones to the run's claims (re-extracting the same text finds the same claims
 * and adds nothing). The run's clusters and relations no longer describe its claims afterwards and are
 * removed; evidence is recomputed on request.
 */
export async function extractRunClaims(req: RunRequest & { input: ClaimsInput }): Promise<ClaimsResult> {
  const { ctx, input } = req;
  await checkEditable(ctx.db, req.id, req.scope.actor, false);
  const run = (await findRunById(ctx.db, req.id))!;
  // A full run can take no claim: refuse before any fetch or LLM request is spent on it.
  if ((await countRows(ctx.db, 'claims', run.id)) >= MAX_CLAIMS_PER_RUN) throw claimLimitReached(run.id);
  const requested = await requestedSource(req, run, input);
  const { output, events } = await runStepOnRun('analyze', {
    ...outsideLoop(req),
    // The step reads in the run's language; a request may name another, and a source has its own.
    run: { ...run, language: input.language ?? requested.source.language ?? run.language },
    snapshot: { plan: planOf(run), sources: [requested.source], claims: [] },
    round: requested.source.round,
  });
  const stored = await storeClaims(req, requested, output);
  return {
    runId: run.id,
    sourceId: stored.source.id,
    claims: stored.claims,
    created: stored.created,
    sourceCreated: requested.isNew,
    ...analysisOf(events),
    overLimit: stored.overLimit,
  };
}

/**
 * Clusters the run's claims with the pipeline's evidence graph (same proposition across sources =
 * one cluster; supports, refines and contradicts relations) and stores clusters and relations,
 * replacing earlier ones. Runs under the run's row lock: the result describes exactly the stored claims.
 */
export function clusterRunClaims(
  ctx: Pick<Ctx, 'db'>,
  scope: RequestScope,
  id: string,
): Promise<{ runId: string; clusters: ClaimClusterRow[]; relations: number }> {
  return inEditTransaction(ctx, id, scope.actor, async (trx, run) => {
    const rows = await claimGraphRows(run.id, await readSnapshot(trx, run, ['claims', 'sources', 'graph']));
    await writeClaimGraph(trx, run.id, rows, new Date());
    return { runId: run.id, clusters: await listClaimClusters(trx, run.id), relations: rows.relations.length };
  });
}

/**
 * Recomputes one evidence score per claim with the pipeline's compare step and replaces the run's
 * evidence (what GET /v1/research/{id}/evidence shows).
 */
export function rescoreRunEvidence(req: RunRequest): Promise<EvidenceRow[]> {
  return inEditTransaction(req.ctx, req.id, req.scope.actor, async (trx, run) => {
    const snapshot = await readSnapshot(trx, run, stepModule('compare').reads);
    const { output } = await runStepOnRun('compare', { ...outsideLoop(req), run, snapshot });
    await writeComparison(trx, { run, output, snapshot, now: new Date() });
    return listEvidence(trx, run.id);
  });
}

/**
 * Writes the run's report from its current claims, sources and stored evidence with the pipeline's
 * synthesize step (LLM wording when configured, else extractive) and stores it, replacing the old one
 * (what GET /v1/research/{id}/report shows).
 */
export async function synthesizeRunReport(req: RunRequest): Promise<{
  run: RunRow;
  row: ReportRow;
  engine: 'llm' | 'extractive';
  fallbacks: Array<{ reason: LlmFallbackReason; count: number }>;
}> {
  await checkEditable(req.ctx.db, req.id, req.scope.actor, false);
  const run = (await findRunById(req.ctx.db, req.id))!;
  const snapshot = await readSnapshot(req.ctx.db, run, stepModule('synthesize').reads);
  const { output, events } = await runStepOnRun('synthesize', { ...outsideLoop(req), run, snapshot });
  const record = reportRecord(run, output, snapshot, new Date());
  await inEditTransaction(req.ctx, req.id, req.scope.actor, (trx) => writeReport(trx, run.id, record));
  const engine = events.some((e) => e.kind === 'engine' && e.mode === 'llm') ? 'llm' : 'extractive';
  const row = { run_id: run.id, report: record.report, generated_at: record.generatedAt };
  return { run, row, engine, fallbacks: fallbacksOf(events) };
}

/** Read helpers of the run-scoped routes (any authenticated caller, like /v1 reads). */
export function getRunClusters(db: Database, runId: string): Promise<ClaimClusterRow[]> {
  return listClaimClusters(db, runId);
}

/** One page of the run's stored claim relations and how many it has in all. */
export async function getRunClaimRelations(
  db: Database,
  runId: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; relations: ClaimRelationRow[] }> {
  const [total, relations] = await Promise.all([countClaimRelations(db, runId), listClaimRelations(db, runId, page)]);
  return { total, relations };
}
