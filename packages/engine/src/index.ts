export {
  dedupeQueries,
  firstRoundQueries,
  fusionWeight,
  userQueries,
  MAX_QUERY_CHARS,
  QUESTION_DIMENSION,
  sentQuery,
  type PlannedQuery,
} from './plan/queries';
export { extractivePlan, type PlannerInput } from './plan/extractive-planner';
export { nameKey, namedEntities, questionNames, subjectKey } from './text/names';
export { extractClaims, claimTypeOf, planTerms } from './claims/extractive-claims';
export { claimTextOf } from './claims/claim-text';
export {
  isStatement,
  nonStatementReason,
  statementCheck,
  type NonStatement,
  type StatementOptions,
} from './claims/statements';
export { groundSpan, prepareGrounding, type Grounding } from './claims/grounding';
export { chunkText } from './claims/chunking';
export { detectContradiction, type Contradiction, type ContradictionKind } from './compare/contradiction';
export {
  judgeStance,
  propositionOf,
  type Proposition,
  type Stance,
  type StanceCue,
  type StanceJudgement,
} from './compare/stance';
export type { PropositionStances } from './compare/stance-disputes';
export { buildEvidenceGraph, type EvidenceGraph, type GraphOptions } from './compare/evidence-graph';
export { MAX_COMPARED_PAIRS } from './compare/candidate-pairs';
export type { ClaimInput, SourceInput } from './compare/graph-inputs';
export type { Cluster } from './compare/clusters';
export { scoreEvidence, claimStrength, type ScoringInput } from './compare/evidence-scores';
export { findGaps, gapQueries, type Gaps } from './rounds/gap-analysis';
export { planBridge, type BridgeInput, type BridgeResult } from './rounds/bridge';
export { hitJudge, nameFit, type HitJudge, type ShownHit } from './retrieval/hit-fit';
export {
  FIT_FLOOR,
  LINK_WEIGHT,
  NAME_OTHER_HITS,
  queryRoles,
  rankPool,
  type Candidate,
  type PoolHit,
  type PoolPages,
  type QueryRole,
  type RankedRun,
} from './retrieval/hit-ranking';
export {
  linkingNames,
  questionSentences,
  NAMES_PER_PAGE,
  type LinkingName,
  type PageSentence,
  type ReadPage,
} from './retrieval/linking-names';
export { buildReport } from './report/report-builder';
export { rankFindings } from './report/rank-findings';
export {
  FINDING_EVIDENCE_LIKENESS,
  findingEvidenceOf,
  type EvidenceClaim,
  type FindingEvidence,
} from './report/finding-evidence';
export { englishFallback, hasReportText, reportText, REPORT_LANGUAGES, type ReportText } from './report/report-text';
export { MAX_CONTEXT_SENTENCES, standaloneText } from './report/standalone';
export { sentences, type Sentence } from './text/sentences';
export { containment, jaccard, termSet } from './text/tokens';
export * as planPromptV1 from './prompts/plan.v1';
export * as bridgePromptV1 from './prompts/bridge.v1';
export * as claimsPromptV2 from './prompts/claims.v2';
export * as reportPromptV2 from './prompts/report.v2';
export { planResearch, type PlanResearchInput, type PlanResearchResult } from './plan/plan-research';
export {
  analyzeSources,
  MAX_LLM_CHUNKS_PER_SOURCE,
  MAX_LLM_CLAIMS_PER_SOURCE,
  type AnalyzableSource,
  type AnalyzeSourcesInput,
  type AnalyzeSourcesResult,
} from './claims/analyze-sources';
export { compareEvidence, evidenceGraphOf, scoreOverGraph } from './compare/compare-evidence';
export {
  synthesizeReport,
  evidenceDraftsOf,
  type SynthesizedReport,
  type SynthesizeReportInput,
} from './report/synthesize-report';
export type { ClaimRelation, RelationKind } from './compare/pair-relations';
export { stableId } from './ids';
export {
  readRunEvents,
  runEventSchema,
  summarizeEvents,
  type EngineMode,
  type ParsedNotes,
  type RunEvent,
} from './notes';
export * as visionPromptV1 from './prompts/vision.v1';
export * from './answer';
