import {
  normalizeWhitespace,
  planSchema,
  type AppConfig,
  type ClaimDraft,
  type EvidenceDraft,
  type Plan,
  type ReportBody,
  type SearchResultDraft,
  type SourceDraft,
} from '@research/core';
import type { EvidenceRow, SearchResultRow } from '@research/database';
import type { Logger, Metrics } from '@research/observability';
import type { ResearchEngine, RunSnapshot, StepContext } from '@research/pipeline';
import { chunkText } from './claims/chunking';
import { CLAIMS_PER_SOURCE, extractClaims, planTerms } from './claims/extractive-claims';
import { groundSpan } from './claims/grounding';
import { buildEvidenceGraph, type EvidenceGraph } from './compare/evidence-graph';
import { scoreEvidence } from './compare/evidence-scores';
import { stableId } from './ids';
import { LlmFailure, createLlmClient, type LlmClient } from './llm/llm-client';
import { note } from './notes';
import { extractivePlan } from './plan/extractive-planner';
import * as claimsPrompt from './prompts/claims.v1';
import * as planPrompt from './prompts/plan.v1';
import { llmReport } from './report/llm-report';
import { buildReport, rankFindings } from './report/report-builder';
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

/** LLM chunks analysed per source at most; the rest of a long source goes to the extractive engine. */
export const MAX_LLM_CHUNKS_PER_SOURCE = 4;
/** Claims kept per source from the LLM. */
export const MAX_LLM_CLAIMS_PER_SOURCE = 12;

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

function graphOf(snapshot: RunSnapshot): EvidenceGraph {
  return buildEvidenceGraph(snapshot.claims, snapshot.sources);
}

function evidenceDrafts(rows: EvidenceRow[]): EvidenceDraft[] {
  return rows.map((e) => ({
    claim_id: e.claim_id,
    evidence_type: e.evidence_type === 'primary_report' ? 'primary_report' : 'secondary_report',
    source_independence_score: e.source_independence_score,
    primary_source_proximity: e.primary_source_proximity,
    cross_source_support: e.cross_source_support,
    contradiction_level: e.contradiction_level,
    evidence_directness: e.evidence_directness,
    date_relevance_score: e.date_relevance_score,
  }));
}

/** Interleaves hits by rank (every query's first hit, then every second hit…), in stored order. */
function byRank(hits: SearchResultRow[]): SearchResultRow[] {
  return [...hits].sort((a, b) => a.rank - b.rank || a.position - b.position);
}

function failureKind(error: unknown): string {
  return error instanceof LlmFailure ? error.kind : 'error';
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
    const extra = extraQueries(ctx);
    const fallback = extractivePlan({
      query: ctx.run.query,
      language: ctx.run.language,
      extraQueries: extra,
      referenceDate: ctx.run.created_at,
    });
    if (!llm) {
      ctx.notes.push(note.engine('plan', ctx.round, 'extractive'));
      return fallback;
    }
    try {
      const answer = await llm.complete(ctx, {
        name: planPrompt.name,
        system: planPrompt.system,
        user: planPrompt.user({ query: ctx.run.query, language: ctx.run.language, extraQueries: extra }),
        schema: planPrompt.schema,
        maxTokens: 1500,
      });
      const searchQueries = dedupeQueries([
        ...answer.search_queries,
        ...extra.map((q) => ({ query: q.trim().slice(0, 300), dimension: 'user' })),
      ]);
      const result = planSchema.parse({
        query: ctx.run.query,
        language: ctx.run.language,
        ...answer,
        search_queries: searchQueries,
        search_dimensions: [...new Set([...answer.search_dimensions, ...searchQueries.map((q) => q.dimension)])],
      });
      ctx.notes.push(note.engine('plan', ctx.round, 'llm'));
      return result;
    } catch (error) {
      if (ctx.signal.aborted || !(error instanceof LlmFailure)) throw error;
      ctx.logger.warn('LLM planning failed; using the extractive planner', { reason: error.message });
      ctx.notes.push(note.fallback('plan', ctx.round, error.kind), note.engine('plan', ctx.round, 'extractive'));
      return fallback;
    }
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
      const graph = graphOf(snapshot);
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
    const language = ctx.run.language;
    const terms = planTerms(snapshot.plan, ctx.run.query);
    const sources = snapshot.sources.filter((s) => s.round === ctx.round);
    const runId = ctx.run.id;
    if (!llm) {
      ctx.notes.push(note.engine('analyze', ctx.round, 'extractive'));
      return sources.flatMap((s) => extractClaims({ runId, sourceId: s.id, text: s.content, language, terms }));
    }

    // Chunk sizes leave room for the instructions and the question in every prompt.
    const framing =
      claimsPrompt.system.length +
      claimsPrompt.user({
        question: ctx.run.query,
        subQuestions: snapshot.plan?.sub_questions ?? [],
        title: '',
        passage: '',
      }).length +
      200;
    const chunkChars = ctx.budget.max_context_per_llm_call - framing;
    let llmAllowance = Math.max(0, ctx.budget.max_llm_requests - (ctx.usage.llm_requests ?? 0) - REPORT_RESERVE);
    const work = sources.map((source) => {
      const chunks = chunkText(source.content, chunkChars, language);
      return chunks.map((text, i) => {
        const useLlm = chunkChars >= 200 && i < MAX_LLM_CHUNKS_PER_SOURCE && llmAllowance > 0;
        if (useLlm) llmAllowance--;
        return { source, text, chunks: chunks.length, useLlm };
      });
    });
    const fallbacks = new Map<string, number>();
    const addFallback = (kind: string) => fallbacks.set(kind, (fallbacks.get(kind) ?? 0) + 1);
    let llmChunks = 0;
    let extractiveChunks = 0;
    let ungrounded = 0;

    const perSource = await Promise.all(
      work.map(async (chunks) => {
        const results = await Promise.all(
          chunks.map(async ({ source, text, chunks: count, useLlm }): Promise<ClaimDraft[]> => {
            const extractive = () => {
              extractiveChunks++;
              return extractClaims({
                runId,
                sourceId: source.id,
                text,
                language,
                terms,
                limit: Math.max(2, Math.ceil(CLAIMS_PER_SOURCE / count)),
              });
            };
            if (!useLlm) {
              if (chunkChars < 200) addFallback('context');
              else addFallback('budget');
              return extractive();
            }
            try {
              const answer = await llm.complete(ctx, {
                name: claimsPrompt.name,
                system: claimsPrompt.system,
                user: claimsPrompt.user({
                  question: ctx.run.query,
                  subQuestions: snapshot.plan?.sub_questions ?? [],
                  title: source.title ?? source.url,
                  passage: text,
                }),
                schema: claimsPrompt.schema,
                maxTokens: 3000,
              });
              llmChunks++;
              const drafts: ClaimDraft[] = [];
              for (const c of answer.claims) {
                // Grounded in the chunk first (the passage the model read), then anywhere in the source.
                const span =
                  groundSpan(c.evidence_span, text, language) ?? groundSpan(c.evidence_span, source.content, language);
                if (!span) {
                  ungrounded++;
                  continue;
                }
                const claimText = normalizeWhitespace(c.claim_text);
                drafts.push({
                  id: stableId(runId, source.id, span, claimText),
                  source_id: source.id,
                  claim_text: claimText,
                  evidence_span: span,
                  claim_type: c.claim_type,
                  confidence: Math.round(c.confidence * 100) / 100,
                });
              }
              return drafts;
            } catch (error) {
              if (ctx.signal.aborted || !(error instanceof LlmFailure)) throw error;
              addFallback(failureKind(error));
              ctx.logger.warn('LLM claim extraction failed for a passage; using the extractive engine', {
                source_id: source.id,
                reason: error.message,
              });
              return extractive();
            }
          }),
        );
        const seen = new Set<string>();
        return results
          .flat()
          .filter((c) => !seen.has(c.id) && seen.add(c.id))
          .slice(0, MAX_LLM_CLAIMS_PER_SOURCE * Math.max(1, Math.min(chunks.length, MAX_LLM_CHUNKS_PER_SOURCE)));
      }),
    );
    for (const [kind, count] of fallbacks) ctx.notes.push(note.fallback('analyze', ctx.round, kind, count));
    if (ungrounded > 0) ctx.notes.push(note.droppedClaims(ctx.round, ungrounded));
    const mode = llmChunks > 0 && extractiveChunks > 0 ? 'mixed' : llmChunks > 0 ? 'llm' : 'extractive';
    if (sources.length > 0) ctx.notes.push(note.engine('analyze', ctx.round, mode));
    return perSource.flat();
  }

  async function compare(ctx: StepContext, snapshot: RunSnapshot): Promise<EvidenceDraft[]> {
    const graph = graphOf(snapshot);
    const round = new Map(snapshot.claims.map((c) => [c.id, c.round]));
    // Each contradiction is counted once: in the round its newer claim arrived.
    const fresh = graph.contradictions.filter(
      (c) => Math.max(round.get(c.claimA) ?? 0, round.get(c.claimB) ?? 0) === ctx.round,
    ).length;
    if (fresh > 0) ctx.metrics.contradictionsDetected(fresh);
    if (ctx.round === 1) ctx.notes.push(note.engine('compare', ctx.round, 'deterministic'));
    return scoreEvidence(
      {
        claims: snapshot.claims,
        sources: snapshot.sources,
        timeSensitivity: snapshot.plan?.time_sensitivity ?? 'none',
        referenceDate: ctx.run.created_at,
      },
      graph,
    );
  }

  async function synthesize(ctx: StepContext, snapshot: RunSnapshot): Promise<ReportBody> {
    const graph = graphOf(snapshot);
    const evidence = evidenceDrafts(snapshot.evidence);
    const gaps = snapshot.plan ? findGaps(snapshot.plan, ctx.run.query, graph) : null;
    const base = {
      query: ctx.run.query,
      language: ctx.run.language,
      plan: snapshot.plan,
      graph,
      evidence,
      gaps,
      rounds: ctx.rounds,
      queriesSent: ctx.usage.search_queries ?? 0,
      generatedAt: new Date(),
    };
    const ranked = rankFindings(base);
    const final = ctx.round >= ctx.rounds;
    if (!final) return buildReport({ ...base, notes: ctx.notes }, ranked);
    if (!llm || ranked.length === 0) {
      ctx.notes.push(note.engine('synthesize', ctx.round, 'extractive'));
      return buildReport({ ...base, notes: ctx.notes }, ranked);
    }
    const draft = buildReport({ ...base, notes: ctx.notes }, ranked);
    try {
      const written = await llmReport(llm, ctx, {
        query: ctx.run.query,
        language: ctx.run.language,
        ranked,
        base: draft,
      });
      ctx.notes.push(note.engine('synthesize', ctx.round, 'llm'));
      const body = buildReport({ ...base, notes: ctx.notes }, ranked);
      return { ...body, summary: written.summary, findings: written.findings };
    } catch (error) {
      if (ctx.signal.aborted || !(error instanceof LlmFailure)) throw error;
      ctx.logger.warn('LLM report writing failed; using the extractive report', { reason: error.message });
      ctx.notes.push(
        note.fallback('synthesize', ctx.round, error.kind),
        note.engine('synthesize', ctx.round, 'extractive'),
      );
      return buildReport({ ...base, notes: ctx.notes }, ranked);
    }
  }

  return { name: llm ? 'evidence-llm' : 'evidence-extractive', plan, search, fetch, analyze, compare, synthesize };
}
