/** The parts of a claim the comparison reads. */
export interface ClaimInput {
  id: string;
  source_id: string;
  claim_text: string;
  evidence_span: string;
  claim_type: string;
  confidence: number;
  round: number;
  position: number;
  /** The claim's stance toward the question's proposition as the extracting model judged it, if one did. */
  stance?: string | null;
}

/** The parts of a source the comparison reads. */
export interface SourceInput {
  id: string;
  url: string;
  title: string | null;
  domain: string;
  source_type: string | null;
  content: string;
  published_at: string | null;
}
