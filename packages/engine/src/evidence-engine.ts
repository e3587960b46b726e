import {
  MAX_CLAIMS_PER_RUN,
  type AppConfig,
  type ClaimDraft,
  type EvidenceDraft,
  type Plan,
  type ReportBody,
  type SearchResultDraft,
  type SourceDraft,
} from '@research/core';
import type { SearchResultRow } from '@research/database';
import type { Logger, Metrics } from '@research/observability';
import type { ResearchEngine, RunSnapshot, StepContext } from '@research/pipeline';
import { analyzeSources } from './claims/analyze-sources';
import { planTerms } from './claims/extractive-claims';
import { compareEvidence, evidenceGraphOf } from './compare/compare-evidence';
import type { EvidenceGraph } from './compare/evidence-graph';
import { createLlmClient, type LlmClient } from './llm/llm-client';
import { note } from './notes';
import { planResearch } from './plan/plan-research';
import { evidenceDraftsOf, synthesizeReport } from './report/synthesize-report';
import { findGaps, gapQueries } from './rounds/gap-analysis';
import type { PlannedQuery, WebAccess } from './web/web-access';

export interface EvidenceEngineOptions {
  config: Pick<AppConfig, 'llm'>;
  logger: Logger;
  /** Process metrics (LLM requests are counted here as they happen, committed or not). */
  metrics: Metrics;
  web: WebAccess;
  /** The process's LLM client; built from config.llm when omitted and LLM_BASE_URL is set; null: none. */
  llm?: LlmClient | null;
}

export { MAX_LLM_CHUNKS_PER_SOURCE, MAX_LLM_CLAIMS_PER_SOURCE } from './claims/analyze-sources';

function extraQueries(ctx: StepContext): string[] {
  const extra = ctx.run.extra_queries;
  return Array.isArray(extra) ? extra.filter((q): q is string => typeof q === 'string' && q.trim() !== '') : [];
}

function dedupeQueries(queries: PlannedQuery[]): PlannedQuery[] {
  const seen = new Set<string>();
  return queries.filter((q) => {
    const key = q.query.trim().toLowerCase();
    if (!key || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Round 1's queries: the plan's, its counter-evidence queries and the user's extra queries. */
export function firstRoundQueries(plan: Plan, extra: readonly string[]): PlannedQuery[] {
  return dedupeQueries([
    ...plan.search_queries.map((q) => ({ query: q.query.trim(), dimension: q.dimension })),
    ...extra.map((q) => ({ query: q.trim().slice(0, 300), dimension: 'user' })),
    ...plan.counter_evidence_queries.map((q) => ({ query: q.trim(), dimension: 'counter_evidence' })),
  ]);
}

/**
 * Search queries a round may send: later rounds keep a share of the budget (up to 5 each), round 1
 * gets the rest; a later round gets an even share of what is left over the remaining rounds.
 */
export function queryAllowance(max: number, used: number, round: number, rounds: number): number {
  const left = Math.max(0, max - used);
  if (round === 1) {
    const reserve = (rounds - 1) * Math.min(5, Math.floor(max / (2 * rounds)));
    return Math.max(1, left - reserve);
  }
  return Math.ceil(left / Math.max(1, rounds - round + 1));
}

/** Sources a round may add: an even share of the room left over the remaining rounds. */
export function sourceAllowance(max: number, known: number, round: number, rounds: number): number {
  const left = Math.max(0, max - known);
  return Math.ceil(left / Math.max(1, rounds - round + 1));
}

function graphOf(snapshot: RunSnapshot): Promise<EvidenceGraph> {
  return evidenceGraphOf(snapshot.claims, snapshot.sources);
}

/** Interleaves hits by rank (every query's first hit, then every second hit…), in stored order. */
function byRank(hits: SearchResultRow[]): SearchResultRow[] {
  return [...hits].sort((a, b) => a.rank - b.rank || a.position - b.position);
}

/**
 * The evidence engine: plan, rounds of search and fetch through `web`, grounded claims, comparison,
 * one deterministic evidence score per claim and a cited report. With an LLM it plans, extracts claims
 * and writes the report's wording through it; each of those falls back to the extractive engine when
 * the LLM fails or the run's max_llm_requests is spent, and the report says so. Comparison and scores
 * never use the LLM: they are one deterministic function of the evidence.
 */
export function createEvidenceEngine(options: EvidenceEngineOptions): ResearchEngine {
  const { web, logger } = options;
  const llm: LlmClient | null =
    options.llm !== undefined
      ? options.llm
      : options.config.llm.baseUrl
        ? createLlmClient({ config: options.config.llm, metrics: options.metrics, logger })
        : null;

  /** Requests kept back for the final report while claims are extracted. */
  const REPORT_RESERVE = llm ? 1 : 0;

  async function plan(ctx: StepContext): Promise<Plan> {
    const result = await planResearch(llm, ctx, {
      query: ctx.run.query,
      language: ctx.run.language,
      extraQueries: extraQueries(ctx),
      referenceDate: ctx.run.created_at,
    });
    if (result.fallback) {
      ctx.logger.warn('LLM planning failed; using the extractive planner', { reason: result.fallbackReason });
      ctx.notes.push(note.fallback('plan', ctx.round, result.fallback));
    }
    ctx.notes.push(note.engine('plan', ctx.round, result.mode));
    return result.plan;
  }

  async function search(ctx: StepContext, snapshot: RunSnapshot): Promise<SearchResultDraft[]> {
    if (!snapshot.plan) throw new Error('Cannot search without a plan');
    const used = ctx.usage.search_queries ?? 0;
    const limit = queryAllowance(ctx.budget.max_search_queries, used, ctx.round, ctx.rounds);
    let queries: PlannedQuery[];
    if (ctx.round === 1) {
      queries = firstRoundQueries(snapshot.plan, extraQueries(ctx));
      // Queries beyond round 1's share are left to the later rounds; with one round the web layer
      // cuts at the budget and notes what it did not send.
      if (ctx.rounds > 1) queries = queries.slice(0, limit);
    } else {
      const graph = await graphOf(snapshot);
      const gaps = findGaps(snapshot.plan, ctx.run.query, graph);
      const sent = new Set([
        ...snapshot.searchResults.map((r) => r.query),
        ...firstRoundQueries(snapshot.plan, extraQueries(ctx))
          .slice(0, queryAllowance(ctx.budget.max_search_queries, 0, 1, ctx.rounds))
          .map((q) => q.query),
      ]);
      queries = gapQueries({
        gaps,
        plan: snapshot.plan,
        query: ctx.run.query,
        language: ctx.run.language,
        sent,
        limit,
      });
      // Planned queries round 1 had no room for come next.
      if (queries.length < limit) {
        const leftover = firstRoundQueries(snapshot.plan, extraQueries(ctx)).filter(
          (q) => !sent.has(q.query) && !queries.some((x) => x.query === q.query),
        );
        queries = [...queries, ...leftover].slice(0, limit);
      }
    }
    const drafts = queries.length ? await web.search(ctx, queries) : [];
    const seen = new Set(snapshot.searchResults.map((r) => r.url));
    const fresh: SearchResultDraft[] = [];
    let duplicates = 0;
    for (const d of drafts) {
      if (seen.has(d.url)) {
        duplicates++;
        continue;
      }
      seen.add(d.url);
      fresh.push(d);
    }
    ctx.metrics.sourcesDiscovered(fresh.length);
    ctx.metrics.duplicateSources(duplicates);
    ctx.notes.push(note.search(ctx.round, (ctx.usage.search_queries ?? 0) - used, fresh.length));
    return fresh;
  }

  async function fetch(ctx: StepContext, snapshot: RunSnapshot): Promise<SourceDraft[]> {
    const known = new Set(snapshot.sources.map((s) => s.url));
    const candidates = byRank(snapshot.searchResults.filter((r) => r.round === ctx.round && !known.has(r.url)));
    const allowance = sourceAllowance(ctx.budget.max_sources, snapshot.sources.length, ctx.round, ctx.rounds);
    let rejected = 0;
    const countingMetrics: Metrics = {
      ...ctx.metrics,
      sourcesRejected: (reason, count = 1) => {
        rejected += count;
        ctx.metrics.sourcesRejected(reason, count);
      },
    };
    const roundCtx: StepContext = {
      ...ctx,
      metrics: countingMetrics,
      budget: { ...ctx.budget, max_sources: Math.min(ctx.budget.max_sources, snapshot.sources.length + allowance) },
    };
    const drafts =
      allowance > 0 && candidates.length > 0 ? await web.fetch(roundCtx, candidates, snapshot.sources) : [];
    ctx.notes.push(note.fetch(ctx.round, drafts.length + rejected, drafts.length));
    return drafts;
  }

  async function analyze(ctx: StepContext, snapshot: RunSnapshot): Promise<ClaimDraft[]> {
    // A run holding MAX_CLAIMS_PER_RUN claims keeps no more (the orchestrator cuts at the caps): spend
    // no LLM requests on it.
    const sources =
      snapshot.claims.length >= MAX_CLAIMS_PER_RUN ? [] : snapshot.sources.filter((s) => s.round === ctx.round);
    const result = await analyzeSources(llm, ctx, {
      runId: ctx.run.id,
      question: ctx.run.query,
      subQuestions: snapshot.plan?.sub_questions ?? [],
      language: ctx.run.language,
      terms: planTerms(snapshot.plan, ctx.run.query),
      sources,
      llmAllowance: Math.max(0, ctx.budget.max_llm_requests - (ctx.usage.llm_requests ?? 0) - REPORT_RESERVE),
    });
    if (!llm) {
      ctx.notes.push(note.engine('analyze', ctx.round, 'extractive'));
      return result.claims;
    }
    for (const [kind, count] of result.fallbacks) ctx.notes.push(note.fallback('analyze', ctx.round, kind, count));
    if (result.ungrounded > 0) ctx.notes.push(note.droppedClaims(ctx.round, result.ungrounded));
    if (sources.length > 0) ctx.notes.push(note.engine('analyze', ctx.round, result.mode));
    return result.claims;
  }

  async function compare(ctx: StepContext, snapshot: RunSnapshot): Promise<EvidenceDraft[]> {
    const { graph, evidence } = await compareEvidence({
      claims: snapshot.claims,
      sources: snapshot.sources,
      plan: snapshot.plan,
      referenceDate: ctx.run.created_at,
    });
    const round = new Map(snapshot.claims.map((c) => [c.id, c.round]));
    // Each contradiction is counted once: in the round its newer claim arrived.
    const fresh = graph.contradictions.filter(
      (c) => Math.max(round.get(c.claimA) ?? 0, round.get(c.claimB) ?? 0) === ctx.round,
    ).length;
    if (fresh > 0) ctx.metrics.contradictionsDetected(fresh);
    if (ctx.round === 1) ctx.notes.push(note.engine('compare', ctx.round, 'deterministic'));
    return evidence;
  }

  async function synthesize(ctx: StepContext, snapshot: RunSnapshot): Promise<ReportBody> {
    return synthesizeReport(llm, ctx, {
      query: ctx.run.query,
      language: ctx.run.language,
      plan: snapshot.plan,
      graph: await graphOf(snapshot),
      evidence: evidenceDraftsOf(snapshot.evidence),
      round: ctx.round,
      rounds: ctx.rounds,
      queriesSent: ctx.usage.search_queries ?? 0,
      notes: ctx.notes,
      generatedAt: new Date(),
      final: ctx.round >= ctx.rounds,
    });
  }

  return { name: llm ? 'evidence-llm' : 'evidence-extractive', plan, search, fetch, analyze, compare, synthesize };
}
