// What the runtime and the tests use of the HTTP edge: the app over its context, the process's event streams,
// how an error becomes a status, and the API's description.
export * from './context';
export { createApp } from './app';
export { RunEventHub } from './run-event-hub';
export { QUOTA_REDIS_TIMEOUT_MS } from './middleware/key-quotas';
export { classifyError } from './middleware/error-handler';
export { buildOpenApiDocument } from './openapi/openapi-document';
export { sourceEvidenceOf } from './presenters/report-document.presenter';
export { reportDocumentResponseSchema, type ReportDocumentResponse } from './routes/report-export.schemas';
