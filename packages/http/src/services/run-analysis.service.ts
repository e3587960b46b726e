import crypto from 'node:crypto';
import {
  AppError,
  DEPTH_BUDGETS,
  Details,
  MAX_CLAIMS_PER_RUN,
  MAX_CLAIMS_PER_SOURCE,
  ROUNDS_BY_DEPTH,
  fitClaimCaps,
  isDepth,
  isRunning,
  planSchema,
  registrableDomain,
  type LlmFailureKind,
  type Plan,
} from '@research/core';
import { mayManage, type Principal } from '@research/auth';
import { classifySourceType, normalizeCrawlUrl, toSourceDraft } from '@research/crawler';
import {
  countClaimRelations,
  countClaimsBySource,
  countRows,
  deleteClaimGraph,
  existingClaimIds,
  findRunById,
  findRunForEdit,
  findRunSource,
  insertClaims,
  insertSources,
  listClaimClusters,
  listClaimRelations,
  listClaims,
  listEvidence,
  listSources,
  nextRunPositions,
  refreshRunCounts,
  replaceClaimGraph,
  replaceEvidence,
  upsertReport,
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
  MAX_LLM_CHUNKS_PER_SOURCE,
  analyzeSources,
  compareEvidence,
  evidenceDraftsOf,
  readRunEvents,
  planTerms,
  stableId,
  synthesizeReport,
  type EvidenceGraph,
} from '@research/engine';
import { isUuid } from '../ids';
import type { RequestScope } from '../request-scope';
import { fetchOne } from './crawler.service';
import type { ResearchTools } from './research-tools';

type Ctx = { db: Database };

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
  ctx: Ctx,
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

/** LLM use of one request: the run's depth budget per call, a fresh request count. */
function callContext(run: Pick<RunRow, 'depth'>, signal: AbortSignal, scope: RequestScope) {
  const budget = DEPTH_BUDGETS[isDepth(run.depth) ? run.depth : 'normal'];
  return { usage: {} as Record<string, number>, budget, signal, logger: scope.logger };
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
  fallbacks: Array<[LlmFailureKind, number]>;
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

/** The source a `{url}` request reads: the run's own source of that page, or the page fetched now. */
async function sourceOfPage(
  ctx: Ctx,
  tools: ResearchTools,
  scope: RequestScope,
  run: RunRow,
  input: { fetch_url: string; title?: string | null; language?: string },
  signal: AbortSignal,
): Promise<{ source: SourceRow; isNew: boolean }> {
  let url: string;
  try {
    url = normalizeCrawlUrl(input.fetch_url);
  } catch {
    throw new AppError('validation', 'url: must be an http or https URL');
  }
  const known = (await listSources(ctx.db, run.id)).find((s) => s.url === url);
  if (known) return { source: known, isNew: false };
  // The pipeline's crawler: SSRF guard (after DNS, on every redirect), robots.txt, byte cap, page cache;
  // counted in the caller's share of outbound work (429 over it). An unreadable page is a 422 on `url`.
  const document = await fetchOne(tools, scope.actor.userId, { url, language: input.language }, signal);
  if (!document.content.trim()) throw new AppError('validation', 'url: empty: the page has no readable text');
  const redirected = (await listSources(ctx.db, run.id)).find((s) => s.url === document.url);
  if (redirected) return { source: redirected, isNew: false };
  const draft = toSourceDraft(document);
  return {
    isNew: true,
    source: {
      ...draft,
      run_id: run.id,
      round: 0,
      position: 0,
      title: input.title ?? draft.title,
      retrieved_at: new Date(draft.retrieved_at),
    },
  };
}

/**
 * Extracts claims from one of the run's sources, from given text with its URL (stored as a new source
 * of the run), or from a page fetched by URL through the pipeline's crawler (stored as a new source,
 * unless the run already has that page: then its stored text is read again), with the pipeline's claim
 * extraction, and appends the new ones to the run's claims (re-extracting the same text finds the same
 * claims and adds nothing). The run's clusters and relations no longer describe its claims afterwards
 * and are removed; evidence is recomputed on request.
 */
export async function extractRunClaims(
  ctx: Ctx,
  tools: ResearchTools,
  scope: RequestScope,
  id: string,
  input: ClaimsInput,
  signal: AbortSignal,
): Promise<ClaimsResult> {
  await checkEditable(ctx.db, id, scope.actor, false);
  const run = (await findRunById(ctx.db, id))!;
  // A full run can take no claim: refuse before any fetch or LLM request is spent on it.
  if ((await countRows(ctx.db, 'claims', run.id)) >= MAX_CLAIMS_PER_RUN) throw claimLimitReached(run.id);
  let source: SourceRow;
  let isNew = false;
  if ('source_id' in input) {
    const found = await findRunSource(ctx.db, run.id, input.source_id);
    if (!found) throw new AppError('validation', `source_id: the run has no source ${input.source_id}`);
    source = found;
  } else if ('fetch_url' in input) {
    ({ source, isNew } = await sourceOfPage(ctx, tools, scope, run, input, signal));
  } else {
    let url: string;
    try {
      url = normalizeCrawlUrl(input.url);
    } catch {
      throw new AppError('validation', 'url: must be an http or https URL');
    }
    isNew = true;
    source = {
      id: crypto.randomUUID(),
      run_id: run.id,
      round: 0,
      position: 0,
      url,
      title: input.title ?? null,
      domain: registrableDomain(url),
      source_type: classifySourceType(url),
      retrieved_at: new Date(),
      content: input.text,
      published_at: null,
      language: input.language ?? null,
    };
  }

  const plan = planOf(run);
  const result = await analyzeSources(tools.llm(), callContext(run, signal, scope), {
    runId: run.id,
    question: run.query,
    subQuestions: plan?.sub_questions ?? [],
    language: input.language ?? source.language ?? run.language,
    terms: planTerms(plan, run.query),
    sources: [source],
    llmAllowance: MAX_LLM_CHUNKS_PER_SOURCE,
  });

  return inEditTransaction(ctx, id, scope.actor, async (trx) => {
    const positions = await nextRunPositions(trx, run.id);
    const round = Math.max(1, positions.round);
    if (isNew) {
      // A concurrent request may have stored the same page meanwhile (both fetched it before the lock).
      if ('fetch_url' in input && (await listSources(trx, run.id)).some((s) => s.url === source.url)) {
        throw new AppError(
          'conflict',
          `url: another request stored ${source.url} for this run meanwhile; send it again.`,
        );
      }
      source = { ...source, round, position: positions.source };
      await insertSources(trx, [source]);
    }
    const existing = await existingClaimIds(
      trx,
      result.claims.map((c) => c.id),
    );
    const held = await countClaimsBySource(trx, run.id);
    const total = [...held.values()].reduce((a, b) => a + b, 0);
    const { kept, dropped } = fitClaimCaps(
      result.claims.filter((c) => !existing.has(c.id)),
      { total, bySource: held },
    );
    // Nothing fits: refuse the request as a whole (a new source is not stored either).
    if (kept.length === 0 && dropped > 0) {
      throw total >= MAX_CLAIMS_PER_RUN ? claimLimitReached(run.id) : claimLimitReached(run.id, source.id);
    }
    const fresh = kept.map((c, i) => ({
      id: c.id,
      run_id: run.id,
      source_id: c.source_id,
      round: isNew ? round : source.round,
      position: positions.claim + i,
      claim_text: c.claim_text,
      evidence_span: c.evidence_span,
      claim_type: c.claim_type,
      confidence: c.confidence,
    }));
    if (fresh.length > 0) {
      await insertClaims(trx, fresh);
      await deleteClaimGraph(trx, run.id);
    }
    await refreshRunCounts(trx, run.id);
    const stored = await listClaims(trx, run.id);
    const ids = new Set(result.claims.map((c) => c.id));
    return {
      runId: run.id,
      sourceId: source.id,
      claims: stored.filter((c) => ids.has(c.id)),
      created: fresh.length,
      sourceCreated: isNew,
      mode: result.mode,
      fallbacks: [...result.fallbacks] as Array<[LlmFailureKind, number]>,
      ungrounded: result.ungrounded,
      overLimit: dropped,
    };
  });
}

function graphRecords(runId: string, graph: EvidenceGraph) {
  return {
    clusters: graph.clusters.map((cluster) => ({
      id: stableId(runId, 'cluster', String(cluster.index)),
      position: cluster.index,
      representative_claim_id: cluster.claimIds[0]!,
      source_ids: cluster.sourceIds,
      independent_groups: cluster.groups,
      claim_ids: cluster.claimIds,
    })),
    relations: graph.relations.map((r) => ({
      claim_id: r.a,
      related_claim_id: r.b,
      relation: r.kind,
      contradiction_kind: r.contradiction?.kind ?? null,
      detail: r.contradiction?.detail ?? null,
    })),
  };
}

function compareRun(run: RunRow, claims: ClaimRow[], sources: SourceRow[]) {
  return compareEvidence({ claims, sources, plan: planOf(run), referenceDate: run.created_at });
}

/**
 * Clusters the run's claims with the pipeline's evidence graph (same proposition across sources =
 * one cluster; supports, refines and contradicts relations) and stores clusters and relations,
 * replacing earlier ones. Runs under the run's row lock: the result describes exactly the stored claims.
 */
export function clusterRunClaims(
  ctx: Ctx,
  scope: RequestScope,
  id: string,
): Promise<{ runId: string; clusters: ClaimClusterRow[]; relations: number }> {
  return inEditTransaction(ctx, id, scope.actor, async (trx, run) => {
    const [claims, sources] = await Promise.all([listClaims(trx, run.id), listSources(trx, run.id)]);
    const { graph } = await compareRun(run, claims, sources);
    const records = graphRecords(run.id, graph);
    await replaceClaimGraph(trx, run.id, { ...records, computedAt: new Date() });
    return { runId: run.id, clusters: await listClaimClusters(trx, run.id), relations: records.relations.length };
  });
}

/**
 * Recomputes one evidence score per claim with the pipeline's deterministic scoring and replaces the
 * run's evidence (what GET /v1/research/{id}/evidence shows).
 */
export function rescoreRunEvidence(ctx: Ctx, scope: RequestScope, id: string): Promise<EvidenceRow[]> {
  return inEditTransaction(ctx, id, scope.actor, async (trx, run) => {
    const [claims, sources] = await Promise.all([listClaims(trx, run.id), listSources(trx, run.id)]);
    const { evidence } = await compareRun(run, claims, sources);
    await replaceEvidence(
      trx,
      run.id,
      evidence.map((e) => ({ ...e, run_id: run.id })),
    );
    return listEvidence(trx, run.id);
  });
}

interface StoredCheckpoint {
  rounds?: number;
  notes?: unknown;
}

/**
 * Writes the run's report from its current claims, sources and stored evidence with the pipeline's
 * report writer (LLM wording when configured, else extractive) and stores it, replacing the old one
 * (what GET /v1/research/{id}/report shows).
 */
export async function synthesizeRunReport(
  ctx: Ctx,
  tools: ResearchTools,
  scope: RequestScope,
  id: string,
  signal: AbortSignal,
): Promise<{
  run: RunRow;
  row: ReportRow;
  engine: 'llm' | 'extractive';
  fallbacks: Array<{ reason: LlmFailureKind; count: number }>;
}> {
  await checkEditable(ctx.db, id, scope.actor, false);
  const run = (await findRunById(ctx.db, id))!;
  const [claims, sources, evidence] = await Promise.all([
    listClaims(ctx.db, run.id),
    listSources(ctx.db, run.id),
    listEvidence(ctx.db, run.id),
  ]);
  const checkpoint = (run.checkpoint ?? {}) as StoredCheckpoint;
  const rounds = checkpoint.rounds ?? ROUNDS_BY_DEPTH[isDepth(run.depth) ? run.depth : 'normal'];
  const generatedAt = new Date();
  // The pipeline's events say which engines ran; this call's own events replace the old synthesize ones.
  const events = readRunEvents(checkpoint.notes).filter(
    (e) => !((e.kind === 'engine' || e.kind === 'fallback') && e.step === 'synthesize'),
  );
  const { body, events: written } = await synthesizeReport(tools.llm(), callContext(run, signal, scope), {
    query: run.query,
    language: run.language,
    plan: planOf(run),
    graph: (await compareRun(run, claims, sources)).graph,
    evidence: evidenceDraftsOf(evidence),
    round: rounds,
    rounds,
    queriesSent: run.usage?.search_queries ?? 0,
    events,
    generatedAt,
    final: true,
  });
  await inEditTransaction(ctx, id, scope.actor, (trx) => upsertReport(trx, run.id, body, generatedAt));
  const engine = written.some((e) => e.kind === 'engine' && e.mode === 'llm') ? 'llm' : 'extractive';
  const fallbacks = written.flatMap((e) =>
    e.kind === 'fallback' ? [{ reason: e.reason as LlmFailureKind, count: e.count }] : [],
  );
  return { run, row: { run_id: run.id, report: body, generated_at: generatedAt }, engine, fallbacks };
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
