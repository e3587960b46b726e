import { readRunCollections, registrableDomain, runCostOf, VERSION, type AppConfig, type Budget } from '@research/core';
import type { RunEventRow } from '@research/database';
import type { ManifestConfiguration, RunManifestResponse, UrlAttempt } from '../routes/research-evidence.schemas';
import type { RunRecord } from '@research/runs';

function iso(value: Date | null): string | null {
  return value ? value.toISOString() : null;
}

/**
 * The settings that shape a run, picked field by field from the configuration: an allow-list, so a key,
 * a token or a URL with credentials in it can never reach the manifest, whatever the configuration gains.
 */
export function presentConfiguration(config: AppConfig): ManifestConfiguration {
  return {
    search: {
      provider: config.search.provider,
      timeout_ms: config.search.timeoutMs,
      max_retries: config.search.maxRetries,
    },
    llm: {
      enabled: config.llm.baseUrl !== undefined,
      model: config.llm.baseUrl !== undefined ? (config.llm.model ?? null) : null,
      timeout_ms: config.llm.timeoutMs,
      max_concurrency: config.llm.maxConcurrency,
    },
    crawler: {
      allow_private_networks: config.crawler.allowPrivateNetworks,
      respect_robots: config.crawler.respectRobots,
      timeout_ms: config.crawler.timeoutMs,
      cache_ttl_seconds: config.crawler.cacheTtlSeconds,
    },
  };
}

/** The most pages the run kept of one site (as the crawler counts them: by registrable domain). */
function mostPagesOfOneSite(sources: RunRecord['sources']): number {
  const perSite = new Map<string, number>();
  for (const s of sources) {
    const site = registrableDomain(s.url) || s.domain;
    perSite.set(site, (perSite.get(site) ?? 0) + 1);
  }
  return Math.max(0, ...perSite.values());
}

/** Each depth budget of the run with what it used of it. */
function budgetLines(record: RunRecord, now: Date): RunManifestResponse['budget'] {
  const { run, sources, budget } = record;
  const used = (key: string) => Math.max(0, Math.round(budget.usage[key] ?? 0));
  const seconds = run.started_at
    ? Math.max(0, Math.round(((run.finished_at ?? now).getTime() - run.started_at.getTime()) / 1000))
    : 0;
  const usedOf: Record<keyof Budget, number | null> = {
    max_search_queries: used('search_queries'),
    max_sources: sources.length,
    max_pages_per_domain: mostPagesOfOneSite(sources),
    max_total_download_bytes: used('download_bytes'),
    max_llm_requests: used('llm_requests'),
    max_research_duration_seconds: seconds,
    max_context_per_llm_call: null,
  };
  return Object.fromEntries(
    (Object.keys(usedOf) as Array<keyof Budget>).map((key) => [key, { limit: budget[key], used: usedOf[key] }]),
  );
}

function text(data: Record<string, unknown>, key: string): string | null {
  const value = data[key];
  return typeof value === 'string' ? value : null;
}

function roundOf(data: Record<string, unknown>): number | null {
  const value = data['round'];
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** The queries of every round: the `query` events, or the queries of the stored hits for older runs. */
function queryLines(record: RunRecord): RunManifestResponse['queries'] {
  const sent = record.events.filter((e) => e.type === 'query');
  if (sent.length === 0) return record.hitQueries.map((q) => ({ ...q, failed: null }));
  return sent.flatMap((e) => {
    const query = text(e.data, 'query');
    return query === null ? [] : [{ round: roundOf(e.data) ?? 0, query, failed: e.data['failed'] === true }];
  });
}

function attemptOf(event: RunEventRow, hashes: ReadonlyMap<string, string | null>): UrlAttempt | null {
  const url = text(event.data, 'url');
  const outcome = text(event.data, 'outcome');
  if (url === null || (outcome !== 'fetched' && outcome !== 'rejected')) return null;
  const sourceId = text(event.data, 'source_id');
  return {
    at: event.at.toISOString(),
    round: roundOf(event.data),
    url,
    outcome,
    reason: text(event.data, 'reason'),
    source_id: sourceId,
    content_sha256: (sourceId !== null ? hashes.get(sourceId) : undefined) ?? text(event.data, 'content_sha256'),
  };
}

/**
 * Every URL the run tried, in time order: the `source` events (fetched or rejected, with the reason), and
 * each stored source no event names (runs recorded before source events, sources added through
 * POST /research/{id}/claims) as fetched at its retrieval time. A source's hash is the one stored with it.
 */
export function urlAttempts(record: RunRecord): UrlAttempt[] {
  const hashes = new Map(record.sources.map((s) => [s.id, s.content_sha256]));
  const fromEvents = record.events.flatMap((e) => {
    const attempt = e.type === 'source' ? attemptOf(e, hashes) : null;
    return attempt ? [attempt] : [];
  });
  const named = new Set(fromEvents.map((a) => a.source_id));
  const unnamed: UrlAttempt[] = record.sources
    .filter((s) => !named.has(s.id))
    .map((s) => ({
      at: s.retrieved_at.toISOString(),
      round: s.round,
      url: s.url,
      outcome: 'fetched',
      reason: null,
      source_id: s.id,
      content_sha256: s.content_sha256,
    }));
  // A stable sort: events keep their order among equal times.
  return [...fromEvents, ...unnamed].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

function engineLines(notes: RunRecord['notes'], config: AppConfig): RunManifestResponse['engines'] {
  const model = presentConfiguration(config).llm.model;
  return notes.flatMap((e) =>
    e.kind === 'engine'
      ? [{ step: e.step, round: e.round, mode: e.mode, model: e.mode === 'llm' || e.mode === 'mixed' ? model : null }]
      : [],
  );
}

/**
 * GET /v1/research/{id}/manifest: what someone needs to audit or repeat the run. The configuration is the
 * answering process's (a deployment's processes share it); `now` ends the duration of a run still going.
 */
export function presentManifest(record: RunRecord, config: AppConfig, now: Date = new Date()): RunManifestResponse {
  const { run, budget, notes } = record;
  return {
    research_id: run.id,
    query: run.query,
    language: run.language,
    depth: run.depth,
    state: run.state,
    extra_queries: run.extra_queries ?? null,
    source_controls: run.source_controls ?? null,
    collections: readRunCollections(run.collections),
    created_at: run.created_at.toISOString(),
    started_at: iso(run.started_at),
    finished_at: iso(run.finished_at),
    service: { version: VERSION },
    configuration: presentConfiguration(config),
    rounds: record.rounds,
    budget: budgetLines(record, now),
    usage: { ...budget.usage },
    cost: runCostOf({ usage: budget.usage, budget: run.budget, pages: record.sources.length }, config.llm.prices),
    engines: engineLines(notes, config),
    fallbacks: notes.flatMap((e) =>
      e.kind === 'fallback' ? [{ step: e.step, round: e.round, reason: e.reason, count: e.count }] : [],
    ),
    queries: queryLines(record),
    urls: urlAttempts(record),
    parent_id: run.parent_id ?? null,
    review_plan: run.review_plan,
  };
}
