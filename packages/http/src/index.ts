export * from './context';
export { createApp } from './app';
export { RunEventHub, type RunEventListener } from './services/run-event-hub';
export { requireApiKey, requireAdmin } from './middleware/authenticate';
export { jsonBody, BODY_LIMIT_BYTES } from './middleware/body-parsing';
export { ALLOWED_ORIGINS } from './middleware/cors';
export { QUOTA_REDIS_TIMEOUT_MS } from './middleware/key-quotas';
export { classifyError, errorHandler, notFoundHandler } from './middleware/error-handler';
export { requestContext, resolveRequestId } from './middleware/request-context';
export { loggerOf, principalOf, requestIdOf, scopeOf, type RequestLocals, type RequestScope } from './request-scope';
export { parseBody, parseQuery, boundedText, integerParam, validationError } from './validation';
export { buildOpenApiDocument } from './openapi/openapi-document';
export { isUuid } from './ids';
export {
  createResearchTools,
  OUTBOUND_PER_CALLER,
  OUTBOUND_PER_PROCESS,
  type ResearchTools,
  type ResearchToolsDeps,
} from './services/research-tools';
export { sourceEvidenceOf, type SourceEvidence } from './presenters/report-document.presenter';
export { reportDocumentResponseSchema, type ReportDocumentResponse } from './routes/report-export.schemas';
