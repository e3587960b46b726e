import type { ColumnType, Generated, Insertable, Kysely, Selectable, Transaction, Updateable } from 'kysely';
import type { EvidenceScores, SearchResultDraft } from '@research/core';

// Timestamps are read as Date (pg's default parser, and PGlite's) and written as Date or ISO text.
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
// jsonb columns are written as JSON text (pg would turn a JS array into a Postgres array) and read parsed.
type Json<T> = ColumnType<T, string, string>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
type GeneratedJson<T> = ColumnType<T, string | undefined, string>;
type NullableJson<T> = ColumnType<T | null, string | null | undefined, string | null>;
// Columns added after their table: rows may be inserted without them (they are then null).
type NullableText = ColumnType<string | null, string | null | undefined, string | null>;
type NullableInteger = ColumnType<number | null, number | null | undefined, number | null>;

export interface UsersTable {
  id: Generated<string>;
  username: string;
  is_admin: Generated<boolean>;
  created_at: GeneratedTimestamp;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string | null;
  salt: string;
  key_hash: string;
  created_at: GeneratedTimestamp;
  expires_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  last_used_at: NullableTimestamp;
}

export interface RunCheckpoint {
  /** Research round the run is in (1-based). */
  round: number;
  /** Steps of that round already committed. */
  done: string[];
  /** Rounds the run will do (from its depth, fixed when planning ends). */
  rounds: number;
}

export interface ResearchRunsTable {
  id: string;
  query: string;
  language: string;
  depth: string;
  budget: Json<Record<string, number>>;
  state: string;
  created_at: GeneratedTimestamp;
  updated_at: NullableTimestamp;
  plan: NullableJson<Record<string, unknown>>;
  search_count: Generated<number>;
  source_count: Generated<number>;
  claim_count: Generated<number>;
  metadata: GeneratedJson<Record<string, unknown>>;
  owner_user_id: string | null;
  is_hidden: Generated<boolean>;
  extra_queries: NullableJson<string[]>;
  request_id: string | null;
  checkpoint: NullableJson<RunCheckpoint>;
  /** Bumped by every committed checkpoint: concurrent writers of one run cannot both advance it. */
  checkpoint_seq: Generated<number>;
  started_at: NullableTimestamp;
  finished_at: NullableTimestamp;
  enqueued_at: NullableTimestamp;
  attempts: Generated<number>;
  usage: GeneratedJson<Record<string, number>>;
  /** The number of the run's last progress event (run_events.seq). */
  event_seq: Generated<number>;
  /** Where the run's end is announced (webhooks); checked against the crawler's address rules. */
  callback_url: string | null;
  /** The source controls given at creation (core's SourceControls), or null. */
  source_controls: NullableJson<Record<string, unknown>>;
  /** Plan review: the run stops after its plan until a caller approves it. */
  review_plan: Generated<boolean>;
  /** When the run's plan began to wait for review (null for a run that never waited). */
  review_requested_at: NullableTimestamp;
  /** The run a follow-up started from (its evidence copied in at creation); null for others and once it is purged. */
  parent_id: NullableText;
  /** The collections the run searches (core's RunCollections: `{ids, web}`), or null. */
  collections: NullableJson<Record<string, unknown>>;
}

/** A search hit as the search step records it (core's SearchResultDraft), placed in its run. */
export interface SearchResultsTable extends SearchResultDraft {
  id: string;
  run_id: string;
  round: number;
  position: number;
}

export interface SourcesTable {
  id: string;
  run_id: string;
  round: number;
  position: number;
  url: string;
  title: string | null;
  domain: string;
  source_type: string | null;
  retrieved_at: Timestamp;
  content: string;
  published_at: string | null;
  language: string | null;
  /** Hex SHA-256 of `content` (UTF-8), set when the source is stored; null only for rows written around the app. */
  content_sha256: NullableText;
}

export interface ClaimsTable {
  id: string;
  run_id: string;
  source_id: string;
  round: number;
  position: number;
  claim_text: string;
  evidence_span: string;
  claim_type: string;
  confidence: number;
  /** Stance toward the run's question as the extracting model judged it (supports/refutes/neutral), or null. */
  stance: ColumnType<string | null, string | null | undefined, string | null>;
  /** Where evidence_span stands in its source's content: code point offsets [span_start, span_end), or null. */
  span_start: NullableInteger;
  span_end: NullableInteger;
}

export interface EvidenceScoresTable extends EvidenceScores {
  claim_id: string;
  run_id: string;
  evidence_type: string;
}

export interface ReportsTable {
  run_id: string;
  report: Json<Record<string, unknown>>;
  generated_at: Timestamp;
}

export interface RetentionRecordsTable {
  research_id: string;
  owner_user_id: string | null;
  query: string;
  is_hidden: Generated<boolean>;
  hidden_at: NullableTimestamp;
  password_hash: string | null;
  updated_at: GeneratedTimestamp;
}

export interface DeletionAuditTable {
  id: Generated<string>;
  research_id: string;
  actor_user_id: string | null;
  action: 'soft_deleted' | 'purged';
  created_at: GeneratedTimestamp;
}

/** One row: the number of non-hidden runs, kept by triggers on research_runs (read-only for the app). */
export interface VisibleRunCounterTable {
  id: Generated<boolean>;
  visible_runs: number;
}

/** One progress event of a run: `seq` counts 1, 2, 3 … per run, in commit order. */
export interface RunEventsTable {
  run_id: string;
  seq: number;
  type: string;
  at: GeneratedTimestamp;
  data: GeneratedJson<Record<string, unknown>>;
}

/** The webhook a run owes since it ended (an outbox row): one per run with a callback_url. */
export interface WebhookDeliveriesTable {
  id: Generated<string>;
  run_id: string;
  event: string;
  payload: Json<Record<string, unknown>>;
  attempts: Generated<number>;
  /** When the next attempt is due; null once delivered or given up. */
  next_attempt_at: NullableTimestamp;
  delivered_at: NullableTimestamp;
  /** The last attempt's HTTP status or error. */
  last_status: string | null;
  created_at: GeneratedTimestamp;
}

/** One attempt to deliver a webhook: the receiver's status code, or why there was none. */
export interface WebhookDeliveryAttemptsTable {
  delivery_id: string;
  attempt: number;
  at: GeneratedTimestamp;
  status_code: number | null;
  error: string | null;
}

/** What GET /v1/research?q=… searches: one row per run, kept by triggers on research_runs and reports (read-only). */
export interface RunSearchTable {
  run_id: string;
  created_at: Timestamp;
  is_hidden: boolean;
  /** The question (weight A) and the report's summary (weight B), `simple` configuration. */
  search_vector: string;
}

/** The whole database as Kysely sees it. */
export interface DB {
  users: UsersTable;
  api_keys: ApiKeysTable;
  research_runs: ResearchRunsTable;
  search_results: SearchResultsTable;
  sources: SourcesTable;
  claims: ClaimsTable;
  evidence_scores: EvidenceScoresTable;
  reports: ReportsTable;
  retention_records: RetentionRecordsTable;
  deletion_audit: DeletionAuditTable;
  visible_run_counter: VisibleRunCounterTable;
  run_events: RunEventsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_delivery_attempts: WebhookDeliveryAttemptsTable;
  run_search: RunSearchTable;
  collections: CollectionsTable;
  collection_documents: CollectionDocumentsTable;
}

/** A database handle or an open transaction: what every repository function takes first. */
export type Db = Kysely<DB> | Transaction<DB>;

export type UserRow = Selectable<UsersTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type RunRow = Selectable<ResearchRunsTable>;
export type NewRun = Insertable<ResearchRunsTable>;
export type RunUpdate = Updateable<ResearchRunsTable>;
export type SearchResultRow = Selectable<SearchResultsTable>;
export type SourceRow = Selectable<SourcesTable>;
export type NewSource = Insertable<SourcesTable>;
export type ClaimRow = Selectable<ClaimsTable>;
export type NewClaim = Insertable<ClaimsTable>;
export type EvidenceRow = Selectable<EvidenceScoresTable>;
export type ReportRow = Selectable<ReportsTable>;
export type RetentionRow = Selectable<RetentionRecordsTable>;
export type AuditRow = Selectable<DeletionAuditTable>;
export type RunEventRow = Selectable<RunEventsTable>;
export type WebhookDeliveryRow = Selectable<WebhookDeliveriesTable>;

/** A named set of uploaded documents; owner null for the service's own (system_key set). */
export interface CollectionsTable {
  id: string;
  owner_user_id: string | null;
  name: string;
  /** The language given at creation (null: none). */
  language: string | null;
  /** The Postgres text search configuration its documents are indexed and searched with. */
  text_search_config: string;
  system_key: NullableText;
  created_at: GeneratedTimestamp;
}

/** One document of a collection: its extracted text, that text's hash and its full-text index. */
export interface CollectionDocumentsTable {
  id: string;
  collection_id: string;
  filename: string;
  title: string;
  content_type: string;
  bytes: number;
  content: string;
  content_sha256: string;
  /** A tsvector, written with to_tsvector (never read as a value). */
  search_vector: ColumnType<string, string, string>;
  created_at: GeneratedTimestamp;
}

export type CollectionRow = Selectable<CollectionsTable>;
export type CollectionDocumentRow = Selectable<CollectionDocumentsTable>;
