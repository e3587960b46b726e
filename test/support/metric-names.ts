/** The metric names SPEC 4.1 promises on /metrics (written out here, not read from the code under test). */
export const SPEC_METRIC_NAMES = [
  'search_queries_total',
  'sources_discovered_total',
  'sources_fetched_total',
  'sources_rejected_total',
  'claims_extracted_total',
  'duplicate_sources_total',
  'contradictions_detected_total',
  'llm_requests_total',
  'llm_tokens_input_total',
  'llm_tokens_output_total',
  'research_duration_seconds',
  'research_completed_total',
  'research_failed_total',
  'active_research_runs',
] as const;
