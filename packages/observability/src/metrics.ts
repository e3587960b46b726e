import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Counters and histograms of the pipeline (SPEC 4.1); the part of a process that is added up across the fleet. */
export interface Metrics {
  /** Registry of the summable pipeline metrics: published by workers, aggregated by the API. */
  readonly fleetRegistry: Registry;
  /** Registry of this process only: default process metrics and the active-runs gauge. */
  readonly localRegistry: Registry;
  searchQueries(provider: string, count?: number): void;
  sourcesDiscovered(count: number): void;
  sourcesFetched(count: number): void;
  sourcesRejected(reason: string, count?: number): void;
  claimsExtracted(count: number): void;
  duplicateSources(count: number): void;
  contradictionsDetected(count: number): void;
  llmRequest(outcome: 'ok' | 'error', seconds: number, tokensIn: number, tokensOut: number): void;
  /** The estimated price of one answered LLM request, in USD (LLM_PRICE_*_PER_MTOK). */
  llmCost(usd: number): void;
  /** The LLM tokens (in and out together) a completed run spent. */
  runLlmTokens(tokens: number): void;
  researchFinished(outcome: 'completed' | 'failed', seconds: number): void;
}

export interface MetricsOptions {
  /** Counts runs in a running state at scrape time (from the database), so the gauge is right after restarts. */
  activeRuns?: () => Promise<number>;
  /** Collect Node's default process metrics into the local registry. */
  defaultMetrics?: boolean;
}

function safely(fn: () => void): void {
  try {
    fn();
  } catch {
    // Metrics must never break the work they observe.
  }
}

function nonNegative(n: number): number {
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/** Builds this process's metrics; one instance per process (tests build one per app). */
export function createMetrics(options: MetricsOptions = {}): Metrics {
  const fleetRegistry = new Registry();
  const localRegistry = new Registry();
  const registers = [fleetRegistry];
  const counter = (name: string, help: string, labelNames: string[] = []) =>
    new Counter({ name, help, labelNames, registers });

  const searchQueries = counter('search_queries_total', 'Search queries sent to a search provider', ['provider']);
  const sourcesDiscovered = counter('sources_discovered_total', 'Distinct candidate sources found by search');
  const sourcesFetched = counter('sources_fetched_total', 'Sources stored on completed runs');
  const sourcesRejected = counter('sources_rejected_total', 'Candidate sources refused or unreadable', ['reason']);
  const claimsExtracted = counter('claims_extracted_total', 'Claims stored on completed runs');
  const duplicateSources = counter('duplicate_sources_total', 'Sources merged as duplicates');
  const contradictions = counter('contradictions_detected_total', 'Contradicting claim pairs found');
  const llmRequests = counter('llm_requests_total', 'Requests sent to the LLM provider', ['outcome']);
  const llmTokensIn = counter('llm_tokens_input_total', 'Prompt tokens reported by the LLM provider');
  const llmTokensOut = counter('llm_tokens_output_total', 'Completion tokens reported by the LLM provider');
  const llmCost = counter('llm_estimated_cost_usd_total', 'Estimated price of the LLM tokens, in USD');
  const completed = counter('research_completed_total', 'Research runs that completed');
  const failed = counter('research_failed_total', 'Research runs that failed');
  const duration = new Histogram({
    name: 'research_duration_seconds',
    help: 'Wall time of finished research runs',
    labelNames: ['outcome'],
    buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200],
    registers,
  });
  const runTokens = new Histogram({
    name: 'research_llm_tokens',
    help: 'LLM tokens (in and out) of each completed research run',
    buckets: [0, 1_000, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000],
    registers,
  });
  const llmDuration = new Histogram({
    name: 'llm_request_duration_seconds',
    help: 'Duration of LLM requests',
    labelNames: ['outcome'],
    buckets: [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120],
    registers,
  });

  const activeRuns = options.activeRuns;
  new Gauge({
    name: 'active_research_runs',
    help: 'Research runs in a running state (counted in the database at scrape time)',
    registers: [localRegistry],
    async collect() {
      if (!activeRuns) return;
      try {
        this.set(Math.max(0, await activeRuns()));
      } catch {
        // Keep the last value when the database is unreachable.
      }
    },
  });
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: localRegistry });

  return {
    fleetRegistry,
    localRegistry,
    searchQueries: (provider, count = 1) => safely(() => searchQueries.inc({ provider }, nonNegative(count))),
    sourcesDiscovered: (count) => safely(() => sourcesDiscovered.inc(nonNegative(count))),
    sourcesFetched: (count) => safely(() => sourcesFetched.inc(nonNegative(count))),
    sourcesRejected: (reason, count = 1) => safely(() => sourcesRejected.inc({ reason }, nonNegative(count))),
    claimsExtracted: (count) => safely(() => claimsExtracted.inc(nonNegative(count))),
    duplicateSources: (count) => safely(() => duplicateSources.inc(nonNegative(count))),
    contradictionsDetected: (count) => safely(() => contradictions.inc(nonNegative(count))),
    llmRequest: (outcome, seconds, tokensIn, tokensOut) =>
      safely(() => {
        llmRequests.inc({ outcome });
        llmDuration.observe({ outcome }, nonNegative(seconds));
        llmTokensIn.inc(nonNegative(tokensIn));
        llmTokensOut.inc(nonNegative(tokensOut));
      }),
    llmCost: (usd) => safely(() => llmCost.inc(nonNegative(usd))),
    runLlmTokens: (tokens) => safely(() => runTokens.observe(nonNegative(tokens))),
    researchFinished: (outcome, seconds) =>
      safely(() => {
        (outcome === 'completed' ? completed : failed).inc();
        duration.observe({ outcome }, nonNegative(seconds));
      }),
  };
}

export type MetricSnapshot = Awaited<ReturnType<Registry['getMetricsAsJSON']>>;

/** This process's summable metrics as JSON, for publishing to the fleet. */
export async function snapshotFleetMetrics(metrics: Metrics): Promise<MetricSnapshot> {
  return (await metrics.fleetRegistry.getMetricsAsJSON()) as MetricSnapshot;
}

/**
 * Prometheus text: the fleet's totals of the summable metrics (see fleet.ts), or this process's own when
 * there is no fleet (no Redis, or it cannot be read), followed by this process's local metrics.
 */
export async function renderFleetMetrics(metrics: Metrics, fleet: MetricSnapshot | null): Promise<string> {
  const summable = fleet ? AggregatorRegistry.aggregate([fleet]) : metrics.fleetRegistry;
  const [fleetText, localText] = await Promise.all([summable.metrics(), metrics.localRegistry.metrics()]);
  return `${fleetText.trimEnd()}\n${localText}`;
}

export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;
