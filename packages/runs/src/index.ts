// The use cases of the service: what a caller can do with runs, their evidence and the research tools, as
// plain functions over the services a composition root built (RunsContext), each tested without HTTP. The
// routes of packages/http parse a request, call one of these and present its answer.
export { type RunsContext } from './context';
export { type RequestScope } from './scope';
export {
  createResearchTools,
  OUTBOUND_PER_CALLER,
  type OutboundLease,
  type ResearchTools,
  type ResearchToolsDeps,
} from './research-tools';
export {
  createResearchRun,
  listHiddenRuns,
  protectRun,
  purgeRun,
  softDeleteRun,
  unprotectRun,
  type CreateRunInput,
} from './research.service';
export {
  authenticateRunRead,
  getRunClaims,
  getRunEvidence,
  getRunReport,
  getRunSources,
  getVisibleRun,
  listRuns,
  visibleRunOr404,
  type SourceSummary,
} from './research-reads.service';
export { cancelRun } from './run-cancel.service';
export { getRunRecord, getRunSourceContent, type RunRecord } from './run-evidence.service';
export {
  clusterRunClaims,
  extractRunClaims,
  getRunClaimRelations,
  getRunClusters,
  rescoreRunEvidence,
  synthesizeRunReport,
  type ClaimsInput,
  type ClaimsResult,
  type RunRequest,
} from './run-analysis.service';
export {
  reportDocumentWork,
  type CitedSource,
  type DocumentDisagreement,
  type DocumentFinding,
  type DocumentPosition,
  type Quote,
  type ReportDocument,
  type ReportView,
  type SummaryPart,
} from './report-document';
export { SEARCH_PROVIDER_NAMES, searchOnce, type SearchInput, type SearchProviderName } from './search.service';
export {
  fetchBatch,
  fetchOne,
  MAX_BATCH_URLS,
  validateOne,
  type BatchItem,
  type CrawlFailure,
  type FetchedDocument,
  type UrlValidation,
} from './crawler.service';
export { planQuestion, type PlannedQuestion } from './planner.service';
export {
  analyzeImage,
  assertVisionConfigured,
  type ImageRequest,
  type VisionInput,
  type VisionResult,
} from './vision.service';
export {
  assertAudioConfigured,
  downloadAudio,
  transcribeAudio,
  type AudioFile,
  type TranscriptionResult,
} from './audio.service';
export { listWebhookDeliveries } from './webhooks.service';
export { checkReadiness, type Readiness } from './readiness.service';
export { estimateRun, ESTIMATE_RUNS, type EstimateInput, type RunEstimate } from './run-estimate.service';
export { approveRunPlan, editRunPlan } from './plan-review.service';
export {
  createCollection,
  getCollection,
  getCollectionDocument,
  listDocumentsOfCollection,
  listReadableCollections,
  MAX_COLLECTION_SEARCH_RESULTS,
  MAX_COLLECTION_UPLOAD_BYTES,
  removeCollection,
  removeCollectionDocument,
  searchCollection,
  uploadCollectionDocument,
  type CollectionSearchHit,
  type UploadedFile,
} from './collections.service';
