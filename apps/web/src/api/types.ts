// The API's answers as the page reads them (SPEC 4.x and the extensions in docs/api.md).

export type RunState =
  | 'created'
  | 'planning'
  | 'awaiting_review'
  | 'searching'
  | 'fetching'
  | 'analyzing'
  | 'comparing'
  | 'synthesizing'
  | 'completed'
  | 'failed'
  | 'cancelled';

export type Depth = 'quick' | 'normal' | 'deep';

export interface RunListItem {
  research_id: string;
  query: string;
  depth: Depth;
  state: RunState;
  created_at: string;
  source_count: number;
  claim_count: number;
  is_deletion_protected: boolean;
  /** The run this one follows up, or null. */
  parent_id?: string | null;
}

export interface RunList {
  total: number;
  limit: number;
  offset: number;
  items: RunListItem[];
}

export interface RunStatus {
  research_id: string;
  query: string;
  depth: Depth;
  state: RunState;
  created_at: string;
  updated_at: string | null;
  search_count: number;
  source_count: number;
  claim_count: number;
  error: string | null;
  is_completed: boolean;
  is_running: boolean;
  is_deletion_protected: boolean;
  /** What the run spent so far (an extension; absent from older services). */
  cost?: RunCost;
  /** The run this one follows up, or null. */
  parent_id?: string | null;
}

export interface CreatedRun {
  research_id: string;
  status: 'pending';
  query: string;
  depth: Depth;
  state: 'created';
}

export interface HiddenRun {
  research_id: string;
  query: string;
  hidden_at: string;
  is_deletion_protected: boolean;
}

export interface SourceContent {
  content_sha256: string;
  text: string;
}

/** POST /v1/research as the Ask page sends it: optional fields are left out when empty. */
export interface ResearchRequest {
  query: string;
  depth: Depth;
  language?: string;
  extra_queries?: string[];
  include_domains?: string[];
  exclude_domains?: string[];
  published_after?: string;
  max_sources?: number;
  max_llm_tokens?: number;
  review_plan?: boolean;
  /** A follow-up of this run (it starts from that run's sources and claims). */
  parent_id?: string;
  collection_ids?: string[];
}

export interface HiddenResult {
  status: 'hidden';
  research_id: string;
}

export interface PurgedResult {
  status: 'purged';
  research_id: string;
}

export interface ProtectionResult {
  is_deletion_protected: boolean;
}

/** What a run spent so far (the `cost` extension of its status and manifest). */
export interface RunCost {
  llm_requests: number;
  llm_tokens_input: number;
  llm_tokens_output: number;
  search_queries: number;
  pages_fetched: number;
  estimated_cost_usd: number | null;
  max_llm_tokens: number | null;
}

/** POST /v1/research/estimate: what a run of a depth is expected to spend. */
export interface RunEstimate {
  depth: Depth;
  llm_requests: number;
  llm_tokens_input: number;
  llm_tokens_output: number;
  estimated_cost_usd: number | null;
  search_queries: number;
  pages_fetched: number;
  seconds: number;
  based_on_runs: number;
  note: string | null;
}
