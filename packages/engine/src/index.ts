// What the engine's dependents use (the pipeline, the HTTP presenters, the evaluation scripts, the tests), and no more:
// a name only the engine itself reads stays inside it.
export { firstRoundQueries, fusionWeight, userQueries, type PlannedQuery } from './plan/queries';
export { extractivePlan } from './plan/extractive-planner';
export { planResearch } from './plan/plan-research';
export { reviewedQueries, revisePlan, type PlanRevision } from './plan/revise-plan';
export { namedEntities, questionNames, subjectKey } from './text/names';
export { sentences } from './text/sentences';
export { termSet } from './text/tokens';
export { extractClaims, planTerms } from './claims/extractive-claims';
export { claimTextOf } from './claims/claim-text';
export { isStatement, nonStatementReason, statementCheck } from './claims/statements';
export { groundSpan, prepareGrounding } from './claims/grounding';
export { chunkText } from './claims/chunking';
export { analyzeSources } from './claims/analyze-sources';
export { detectContradiction } from './compare/contradiction';
export { judgeStance, propositionOf } from './compare/stance';
export { buildEvidenceGraph, type EvidenceGraph } from './compare/evidence-graph';
export { MAX_COMPARED_PAIRS } from './compare/candidate-pairs';
export type { ClaimInput, SourceInput } from './compare/graph-inputs';
export { scoreEvidence } from './compare/evidence-scores';
export { compareEvidence, evidenceGraphOf, scoreOverGraph } from './compare/compare-evidence';
export { graphFromStored, graphInputsKey, storedGraphOf, type StoredGraph } from './compare/stored-graph';
export { findGaps, gapQueries } from './rounds/gap-analysis';
export { planBridge } from './rounds/bridge';
export {
  FIT_FLOOR,
  LINK_WEIGHT,
  queryRoles,
  rankPool,
  type Candidate,
  type PoolHit,
  type QueryRole,
} from './retrieval/hit-ranking';
export { linkingNames } from './retrieval/linking-names';
export { answerSpans, dateSpans, findAnswer, readQuestion, type AnswerClaim, type AnswerSource } from './answer';
export { buildReport } from './report/report-builder';
export { rankFindings } from './report/rank-findings';
export { findingEvidenceOf } from './report/finding-evidence';
export { englishFallback, reportText, type ReportText } from './report/report-text';
export { MAX_CONTEXT_SENTENCES, standaloneText } from './report/standalone';
export { synthesizeReport, evidenceDraftsOf } from './report/synthesize-report';
export * as claimsPromptV2 from './prompts/claims.v2';
export * as visionPromptV1 from './prompts/vision.v1';
export { stableId } from './ids';
export { readRunEvents, type RunNote } from './notes';
