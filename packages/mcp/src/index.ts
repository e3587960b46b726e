export { loadMcpClientConfig, type McpClientConfig } from './config';
export {
  createResearchApiClient,
  ResearchApiError,
  REPORT_FORMATS,
  type ApiObject,
  type ReportFormat,
  type ResearchApi,
  type ResearchApiOptions,
} from './research-api.client';
export { RESEARCH_TOOLS, type ResearchTool } from './tools';
export { createResearchMcpServer } from './server';
export { handleMcpHttpRequest, type McpHttpRequest } from './streamable-http';
export { serveMcpOverStdio } from './stdio';
