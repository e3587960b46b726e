import http from 'node:http';
import https from 'node:https';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import { networkFailureKind } from '@research/core';

/** A JSON object as the research API answers it. */
export type ApiObject = Record<string, unknown>;

/** The report formats the MCP tools ask for; markdown and html come as text. */
export const REPORT_FORMATS = ['json', 'markdown', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

const EXPORT_MEDIA_TYPES: Readonly<Record<Exclude<ReportFormat, 'json'>, string>> = {
  markdown: 'text/markdown',
  html: 'text/html',
};

/** The research API as the MCP tools use it: one method per endpoint, answers as the API gives them. */
export interface ResearchApi {
  /** `POST /v1/research`. */
  startResearch(body: ApiObject): Promise<ApiObject>;
  /** `GET /v1/research/{id}`. */
  getResearch(researchId: string): Promise<ApiObject>;
  /** `GET /v1/research/{id}/report` (with `?format=` unless json): the JSON report, or the export's text. */
  getReport(researchId: string, format: ReportFormat): Promise<ApiObject | string>;
  /** `GET /v1/research/{id}/claims`. */
  listClaims(researchId: string): Promise<ApiObject>;
  /** `POST /search`. */
  search(body: ApiObject): Promise<ApiObject>;
  /** `POST /v1/research/estimate`. */
  estimateResearch(body: ApiObject): Promise<ApiObject>;
  /** `GET /v1/research/{id}/plan`. */
  getPlan(researchId: string): Promise<ApiObject>;
  /** `PUT /v1/research/{id}/plan` (plan review). */
  editPlan(researchId: string, body: ApiObject): Promise<ApiObject>;
  /** `POST /v1/research/{id}/approve` (plan review). */
  approvePlan(researchId: string): Promise<ApiObject>;
  /** `GET /v1/research` with its query parameters (`q`, `parent_id`, `limit`, `offset`). */
  listResearch(params: ApiObject): Promise<ApiObject>;
  /** `GET /v1/collections`. */
  listCollections(params: { limit?: number; offset?: number }): Promise<ApiObject>;
  /** `GET /v1/collections/{id}/search`. */
  searchCollection(collectionId: string, params: { q: string; limit?: number }): Promise<ApiObject>;
}

/** An answer of the API other than 2xx (`status` and its `detail`), or no answer at all (`status` null). */
export class ResearchApiError extends Error {
  constructor(
    readonly status: number | null,
    readonly detail: string,
  ) {
    super(status === null ? detail : `${detail} (HTTP ${status})`);
    this.name = 'ResearchApiError';
  }
}

export interface ResearchApiOptions {
  /** Base URL of the API, without a trailing slash. */
  readonly baseUrl: string;
  /** Sent as X-API-Key on every request: every rule of the API (ownership, 404s, quotas) applies to it. */
  readonly apiKey: string;
  /** Sent as X-Request-ID, so the API's log lines of a tool call carry the id of the call that made it. */
  readonly requestId?: string;
}

// A search may wait out a slow provider with its retries; everything else answers in milliseconds.
const API_TIMEOUT_MS = 60_000;

// Tool calls come one after another on the same few connections: keep them open.
const agents = { httpAgent: new http.Agent({ keepAlive: true }), httpsAgent: new https.Agent({ keepAlive: true }) };

/** The `detail` of an API error answer, or the status line when the body is not the API's shape. */
function detailOf(response: AxiosResponse): string {
  const data: unknown = response.data;
  const detail = typeof data === 'object' && data !== null ? (data as { detail?: unknown }).detail : undefined;
  if (typeof detail === 'string') return detail;
  return `The research API answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}.`;
}

/** Every failure as a ResearchApiError whose message is safe to show (never a stack or a key). */
function apiError(error: unknown, baseUrl: string): ResearchApiError {
  if (axios.isAxiosError(error) && error.response)
    return new ResearchApiError(error.response.status, detailOf(error.response));
  const kind = networkFailureKind(error);
  const reason = kind === 'timeout' ? 'did not answer in time' : 'could not be reached';
  return new ResearchApiError(null, `The research API at ${baseUrl} ${reason}.`);
}

/** An axios client of the research API at `baseUrl`, authenticated with `apiKey`. */
export function createResearchApiClient(options: ResearchApiOptions): ResearchApi {
  const client: AxiosInstance = axios.create({
    baseURL: options.baseUrl,
    timeout: API_TIMEOUT_MS,
    headers: { 'X-API-Key': options.apiKey, ...(options.requestId ? { 'X-Request-ID': options.requestId } : {}) },
    // Redirects would carry the key elsewhere.
    maxRedirects: 0,
    ...agents,
  });
  const call = async <T>(send: () => Promise<AxiosResponse<T>>): Promise<T> => {
    try {
      return (await send()).data;
    } catch (error) {
      throw apiError(error, options.baseUrl);
    }
  };
  // Encoded, so an id cannot leave its path segment (the tools also accept only id characters).
  const run = (researchId: string) => `/v1/research/${encodeURIComponent(researchId)}`;
  return {
    startResearch: (body) => call(() => client.post<ApiObject>('/v1/research', body)),
    getResearch: (researchId) => call(() => client.get<ApiObject>(run(researchId))),
    getReport: (researchId, format) =>
      format === 'json'
        ? call(() => client.get<ApiObject>(`${run(researchId)}/report`))
        : call(() =>
            client.get<string>(`${run(researchId)}/report`, {
              // Asked both ways the export route understands: the query parameter and the media type.
              params: { format },
              headers: { Accept: EXPORT_MEDIA_TYPES[format] },
              responseType: 'text',
              // The export as the API wrote it; an error answer is still read as JSON for its detail.
              transformResponse: (data: string, _headers, status) =>
                status !== undefined && status >= 400 ? safeJson(data) : data,
            }),
          ),
    listClaims: (researchId) => call(() => client.get<ApiObject>(`${run(researchId)}/claims`)),
    search: (body) => call(() => client.post<ApiObject>('/search', body)),
    estimateResearch: (body) => call(() => client.post<ApiObject>('/v1/research/estimate', body)),
    getPlan: (researchId) => call(() => client.get<ApiObject>(`${run(researchId)}/plan`)),
    editPlan: (researchId, body) => call(() => client.put<ApiObject>(`${run(researchId)}/plan`, body)),
    approvePlan: (researchId) => call(() => client.post<ApiObject>(`${run(researchId)}/approve`)),
    listResearch: (params) => call(() => client.get<ApiObject>('/v1/research', { params })),
    listCollections: (params) => call(() => client.get<ApiObject>('/v1/collections', { params })),
    searchCollection: (collectionId, params) =>
      call(() => client.get<ApiObject>(`/v1/collections/${encodeURIComponent(collectionId)}/search`, { params })),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
