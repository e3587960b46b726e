// The run view's answers: its progress events and the report as a document to read (GET
// /v1/research/{id}/report/document), beside the other response types in types.ts.

/** One progress event (GET /v1/research/{id}/events): its number, type and time, then its own fields. */
export interface RunEventItem {
  seq: number;
  type: string;
  at: string;
  [field: string]: unknown;
}

export interface CancelResponse {
  research_id: string;
  status: 'cancelling';
}

/** A claim's six evidence scores (0 to 1) and its evidence type. */
export interface EvidenceScores {
  evidence_type: string;
  source_independence_score: number;
  primary_source_proximity: number;
  cross_source_support: number;
  contradiction_level: number;
  evidence_directness: number;
  date_relevance_score: number;
}

/** A passage a cited source gives for a finding, with where it stands in the source's text. */
export interface DocumentQuote {
  citation: number;
  text: string;
  claim_id: string;
  source_id: string;
  /** Unicode code points from 0, end exclusive; null when the span was never located. */
  span_start: number | null;
  span_end: number | null;
  claim_text: string;
  claim_type: string;
  evidence: EvidenceScores | null;
}

export interface DocumentFinding {
  number: number;
  text: string;
  confidence: number;
  /** Source numbers. */
  citations: number[];
  quotes: DocumentQuote[];
}

export interface DocumentPosition {
  view: string;
  citation: number | null;
  source: string;
  stance: string | null;
  source_id: string | null;
}

export interface DocumentDisagreement {
  claim: string;
  detail: string | null;
  findings: number[];
  positions: DocumentPosition[];
}

/** A source of the run: cited ones carry their citation number, uncited ones null. */
export interface DocumentSource {
  number: number | null;
  source_id: string;
  title: string | null;
  url: string;
  domain: string;
  source_type: string;
  retrieved_at: string;
  content_sha256: string | null;
  evidence_type: string | null;
  independence: number | null;
  claim_count: number;
}

/** A summary is text with references to findings between. */
export type SummaryPart = string | { finding: number };

export interface ReportDocument {
  research_id: string;
  query: string;
  state: string;
  summary: SummaryPart[];
  findings: DocumentFinding[];
  disagreements: DocumentDisagreement[];
  uncertainties: string[];
  methodology: string;
  /** ISO 8601, or empty while no report exists. */
  generated_at: string;
  sources: DocumentSource[];
}
