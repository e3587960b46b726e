// The API's answers as the page reads them (SPEC 4.x and the extensions in docs/api.md).

export type RunState =
  | 'created'
  | 'planning'
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
