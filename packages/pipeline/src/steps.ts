import type {
  Budget,
  ClaimDraft,
  EvidenceDraft,
  Plan,
  ReportBody,
  SearchResultDraft,
  SourceDraft,
} from '@research/core';
import type { ClaimRow, EvidenceRow, RunRow, SearchResultRow, SourceRow } from '@research/database';
import type { Logger, Metrics } from '@research/observability';

/** What every step sees of the run it works on. */
export interface StepContext {
  readonly run: RunRow;
  readonly budget: Budget;
  /** 1-based research round; depth gives 1, 2 or 3 rounds. */
  readonly round: number;
  readonly rounds: number;
  /** Aborted when the run is cancelled, hidden, or out of time. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
  readonly metrics: Metrics;
  /** Usage counters kept on the run (LLM requests and tokens, queries, bytes); steps add to them. */
  readonly usage: Record<string, number>;
  /** Notes for the report's methodology and uncertainties (fallbacks used, budgets that ran out). */
  readonly notes: string[];
}

/** Everything already committed for the run, read back from Postgres before each step. */
export interface RunSnapshot {
  plan: Plan | null;
  searchResults: SearchResultRow[];
  sources: SourceRow[];
  claims: ClaimRow[];
  evidence: EvidenceRow[];
}

/**
 * The six steps of the pipeline. Steps compute; the orchestrator persists what they return together
 * with the run's checkpoint, in one transaction, so a step either happened entirely or not at all.
 */
export interface ResearchEngine {
  readonly name: string;
  plan(ctx: StepContext): Promise<Plan>;
  /** New search hits for this round (the orchestrator enforces the query budget it is told). */
  search(ctx: StepContext, snapshot: RunSnapshot): Promise<SearchResultDraft[]>;
  /** New sources for this round from the search hits not fetched yet. */
  fetch(ctx: StepContext, snapshot: RunSnapshot): Promise<SourceDraft[]>;
  /** New claims from the sources added this round. */
  analyze(ctx: StepContext, snapshot: RunSnapshot): Promise<ClaimDraft[]>;
  /** One evidence score per claim of the whole run (recomputed every round). */
  compare(ctx: StepContext, snapshot: RunSnapshot): Promise<EvidenceDraft[]>;
  /**
   * The report from the whole run's evidence. Called in every round (CONTRACT 4's states repeat per
   * round); only the last round's report (ctx.round === ctx.rounds) is stored, so an engine may make the
   * earlier calls cheap interim reviews.
   */
  synthesize(ctx: StepContext, snapshot: RunSnapshot): Promise<ReportBody>;
}
