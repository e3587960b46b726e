import type {
  ClaimDraft,
  EvidenceDraft,
  LlmClient,
  Plan,
  ReportBody,
  SearchResultDraft,
  SourceDraft,
} from '@research/core';
import type { Crawler } from '@research/crawler';
import type { ClaimRow, EvidenceRow, RunRow, SearchResultRow, SourceRow } from '@research/database';
import type { RunEvent } from '@research/engine';
import type { Logger, Metrics } from '@research/observability';
import type { SearchProvider } from '@research/search';
import type { RunBudget } from './budget';
import type { ProgressEvent } from './progress';

/** The outside world a run's steps reach, built once per process (packages/runtime/src/research-services.ts). */
export interface ResearchServices {
  /** The process's LLM client; null: every step works extractively. */
  readonly llm: LlmClient | null;
  readonly searchProvider: SearchProvider;
  /** The guarded, budgeted crawler: its run-budgeted collection, and its extraction for local HTML files. */
  readonly crawler: Pick<Crawler, 'fetchSources' | 'extractPage'>;
  /** Where `local:` hits are read from (LOCAL_CORPUS_DIR); undefined: none. */
  readonly localCorpusDir: string | undefined;
}

/** What every step sees of the run it works on. */
export interface StepContext {
  readonly run: RunRow;
  /** The run's limits and usage; steps ask it what they may still spend and count what they spent. */
  readonly budget: RunBudget;
  /** 1-based research round; depth gives 1, 2 or 3 rounds. */
  readonly round: number;
  readonly rounds: number;
  /** Aborted when the run is cancelled, hidden, or out of time. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly services: ResearchServices;
  /** The budget's usage counters (budget.usage), where the LLM client counts its requests and tokens. */
  readonly usage: Record<string, number>;
  /** What happened in the run so far (earlier steps' events and this step's own). */
  readonly events: readonly RunEvent[];
  /** Appends an event for the report's methodology and uncertainties (fallbacks used, budgets that ran out). */
  record(event: RunEvent): void;
  /** Reports progress for clients watching the run (stored with the step's commit, never in the report). */
  progress(event: ProgressEvent): void;
}

/** Everything already committed for the run, read back from Postgres before each step. */
export interface RunSnapshot {
  plan: Plan | null;
  searchResults: SearchResultRow[];
  sources: SourceRow[];
  claims: ClaimRow[];
  evidence: EvidenceRow[];
}

/** One step of the pipeline: what is committed so far and the step's context in, the step's output out. */
export type Step<T> = (snapshot: RunSnapshot, ctx: StepContext) => Promise<T>;

/**
 * The six steps of the pipeline. Steps compute; the orchestrator persists what they return together
 * with the run's checkpoint, in one transaction, so a step either happened entirely or not at all.
 */
export interface PipelineSteps {
  plan: Step<Plan>;
  /** New search hits for this round. */
  search: Step<SearchResultDraft[]>;
  /** New sources for this round from the search hits not fetched yet, and the second hop's new hits. */
  fetch: Step<{ sources: SourceDraft[]; searchResults: SearchResultDraft[] }>;
  /** New claims from the sources added this round. */
  analyze: Step<ClaimDraft[]>;
  /** One evidence score per claim of the whole run (recomputed every round). */
  compare: Step<EvidenceDraft[]>;
  /**
   * The report from the whole run's evidence. Called in every round (CONTRACT 4's states repeat per
   * round); only the last round's report (ctx.round === ctx.rounds) is stored, so earlier calls are
   * cheap interim reviews.
   */
  synthesize: Step<ReportBody>;
}
