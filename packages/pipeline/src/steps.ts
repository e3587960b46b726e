import type { LlmClient, Plan, RunState } from '@research/core';
import type { Crawler } from '@research/crawler';
import type { ClaimRow, Db, EvidenceRow, NewRunEvent, RunRow, SearchResultRow, SourceRow } from '@research/database';
import type { RunNote, StoredGraph } from '@research/engine';
import type { Logger, Metrics } from '@research/observability';
import type { SearchProvider } from '@research/search';
import type { RunBudget } from './budget';
import type { CollectionLibrary } from './collection-library';
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
  /** The collections a run created with `collection_ids` searches and reads; undefined: none (web only). */
  readonly collections?: CollectionLibrary;
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
  /** The run's notes so far (earlier steps' and this step's own): what the report is written from. */
  readonly notes: readonly RunNote[];
  /** Appends a note for the report's methodology and uncertainties (fallbacks used, budgets that ran out). */
  note(note: RunNote): void;
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
  /** The evidence graph the compare step stored (read it with graphOfRun), or null before the first compare. */
  graph: StoredGraph | null;
}

/** A part of the run a step may read: its plan, search hits, sources (with their text), claims, evidence or graph. */
export type SnapshotPart = keyof RunSnapshot;

/** What a step that reads `R` is handed of the run: those parts and no others. */
export type SnapshotOf<R extends SnapshotPart> = Pick<RunSnapshot, R>;

/** One step's work: what it reads of the run and the step's context in, the step's output out. */
export type Step<T, R extends SnapshotPart = SnapshotPart> = (snapshot: SnapshotOf<R>, ctx: StepContext) => Promise<T>;

/**
 * What a step's commit writes in its transaction, the plan when it planned, and the progress events its output
 * adds (the plan, the sources read, claims per source, the report).
 */
export interface StepRecords {
  write: (trx: Db) => Promise<void>;
  plan?: Record<string, unknown>;
  events?: NewRunEvent[];
}

/** What a step's output is turned into records with: its context, what it read, and the time records carry. */
export interface StepRecordsInput<R extends SnapshotPart> {
  ctx: StepContext;
  snapshot: SnapshotOf<R>;
  now: Date;
}

/**
 * A step of the pipeline, described by its module (steps/*.step.ts), as STORM's stages are: its name, the run
 * state it works in, the parts of the run it reads, its work, and how its output is stored. The registry
 * (steps/index.ts) lists the modules in order; everything else about the steps derives from it.
 *
 * `compute` and `records` are methods so that a module reading little (`R` narrow, `T` its own output) stands
 * for any step where the runner handles them alike (method parameters are compared both ways).
 */
export interface StepModule<N extends string, R extends SnapshotPart, T> {
  readonly name: N;
  /** The run's state while the step works (one of core's STEP_STATES, shown to clients). */
  readonly state: RunState;
  /** The parts of the run the step reads: readSnapshot loads these and hands the step nothing else. */
  readonly reads: readonly R[];
  /** True for a step taken in the first round only (planning); the others are taken in every round. */
  readonly firstRoundOnly?: boolean;
  /** The step's work: its output from what it read, its I/O through the context. */
  compute(snapshot: SnapshotOf<R>, ctx: StepContext): Promise<T>;
  /** The step's output as the records its commit writes (step-records.ts's row writers) and the events it adds. */
  records(output: T, input: StepRecordsInput<R>): StepRecords;
}

/** A step module whatever its name, reads and output: what the runner handles. */
export type AnyStepModule = StepModule<string, SnapshotPart, unknown>;

/**
 * A step module, its reads inferred from `reads` alone: a `compute` or `records` that reads a part the module
 * does not declare does not compile.
 */
export function defineStep<const N extends string, const R extends SnapshotPart, T>(module: {
  name: N;
  state: RunState;
  reads: readonly R[];
  firstRoundOnly?: boolean;
  compute: (snapshot: SnapshotOf<NoInfer<R>>, ctx: StepContext) => Promise<T>;
  records: (output: T, input: StepRecordsInput<NoInfer<R>>) => StepRecords;
}): StepModule<N, R, T> {
  return Object.freeze({ ...module });
}
