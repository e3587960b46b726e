import { runPath, type ApiClient } from './client';
import type {
  CreatedRun,
  Depth,
  RunEstimate,
  HiddenResult,
  HiddenRun,
  ProtectionResult,
  PurgedResult,
  ResearchRequest,
  RunList,
} from './types';

// The calls the Ask, Runs and Admin pages make, one function each, so the pages hold no paths or bodies.

/** POST /v1/research. */
export function startResearch(api: ApiClient, request: ResearchRequest): Promise<CreatedRun> {
  return api.json<CreatedRun>('POST', '/v1/research', { body: request });
}

/** What GET /v1/research/{id}/manifest says of how the run was asked for (the fields a retry sends again). */
interface RunRequestOfManifest {
  query: string;
  depth: ResearchRequest['depth'];
  language: string;
  extra_queries: string[] | null;
  source_controls: {
    include_domains?: string[];
    exclude_domains?: string[];
    published_after?: string | null;
    max_sources?: number | null;
  } | null;
  /** The run's cap on LLM tokens is in its cost (absent from older services). */
  cost?: { max_llm_tokens: number | null };
  /** The collections it searches, and whether the web beside them; absent from an older API. */
  collections?: { ids: string[]; web: boolean } | null;
  /** Whether it waited for its plan to be reviewed; absent from an older API. */
  review_plan?: boolean;
}

/**
 * A new run asked for as `id` was (its manifest: question, depth, language, extra queries, source controls, its
 * cap on LLM tokens, its collections, its plan review).
 */
export async function retryRun(api: ApiClient, id: string): Promise<CreatedRun> {
  const asked = await api.get<RunRequestOfManifest>(runPath(id, '/manifest'));
  const controls = asked.source_controls ?? {};
  return startResearch(api, {
    query: asked.query,
    depth: asked.depth,
    language: asked.language,
    ...(asked.extra_queries?.length ? { extra_queries: asked.extra_queries } : {}),
    ...(controls.include_domains?.length ? { include_domains: controls.include_domains } : {}),
    ...(controls.exclude_domains?.length ? { exclude_domains: controls.exclude_domains } : {}),
    ...(controls.published_after ? { published_after: controls.published_after } : {}),
    ...(controls.max_sources ? { max_sources: controls.max_sources } : {}),
    ...(asked.cost?.max_llm_tokens ? { max_llm_tokens: asked.cost.max_llm_tokens } : {}),
    ...(asked.collections ? { collection_ids: asked.collections.ids } : {}),
    // Collections instead of the web: said again as it was said, with an empty include_domains.
    ...(asked.collections && !asked.collections.web ? { include_domains: [] } : {}),
    ...(asked.review_plan ? { review_plan: true } : {}),
  });
}

/**
 * GET /v1/research: one page of the visible runs, newest first; with `filter`, those whose question or report
 * hold the words `q` (best match first) or the follow-ups of run `parentId`.
 */
export function listRuns(
  api: ApiClient,
  page: { offset: number; limit: number },
  signal?: AbortSignal,
  filter: { q?: string; parentId?: string } = {},
) {
  const query = new URLSearchParams({ limit: String(page.limit), offset: String(page.offset) });
  if (filter.q) query.set('q', filter.q);
  if (filter.parentId) query.set('parent_id', filter.parentId);
  return api.get<RunList>(`/v1/research?${query.toString()}`, signal);
}

/** A follow-up of run `parentId` asking `query`, at the depth and in the language the parent was asked in. */
export async function askFollowUp(api: ApiClient, parentId: string, query: string): Promise<CreatedRun> {
  const asked = await api.get<RunRequestOfManifest>(runPath(parentId, '/manifest'));
  return startResearch(api, { query, depth: asked.depth, language: asked.language, parent_id: parentId });
}

/** DELETE /v1/research/{id}: the password goes in the body only when one was entered (SPEC 4.9). */
export function deleteRun(api: ApiClient, id: string, password: string): Promise<HiddenResult> {
  return api.json<HiddenResult>('DELETE', runPath(id), password ? { body: { password } } : {});
}

/** PUT /v1/research/{id}/deletion-protection: sets or replaces the password (SPEC 4.10). */
export function protectRun(
  api: ApiClient,
  id: string,
  passwords: { password: string; currentPassword: string },
): Promise<ProtectionResult> {
  const body = passwords.currentPassword
    ? { password: passwords.password, current_password: passwords.currentPassword }
    : { password: passwords.password };
  return api.json<ProtectionResult>('PUT', runPath(id, '/deletion-protection'), { body });
}

/** DELETE /v1/research/{id}/deletion-protection: its body is required, the password may be missing (SPEC 4.11). */
export function unprotectRun(api: ApiClient, id: string, password: string): Promise<ProtectionResult> {
  return api.json<ProtectionResult>('DELETE', runPath(id, '/deletion-protection'), {
    body: password ? { password } : {},
  });
}

/** GET /v1/admin/research/deleted: the hidden runs, newest hidden first (administrators only). */
export function listHiddenRuns(api: ApiClient, signal?: AbortSignal): Promise<HiddenRun[]> {
  return api.get<HiddenRun[]>('/v1/admin/research/deleted', signal);
}

/** DELETE /v1/admin/research/{id}: removes a hidden run for good (administrators only). */
export function purgeRun(api: ApiClient, id: string): Promise<PurgedResult> {
  return api.json<PurgedResult>('DELETE', `/v1/admin/research/${encodeURIComponent(id)}`);
}

/**
 * POST /v1/research/estimate for a run of `depth`. Its figures depend on the depth alone, so the question it
 * validates is a fixed one: the form asks before a question is typed, and again only when the depth changes.
 */
export function estimateRun(api: ApiClient, depth: Depth, signal?: AbortSignal): Promise<RunEstimate> {
  return api.json<RunEstimate>('POST', '/v1/research/estimate', {
    body: { query: `A ${depth} research run`, depth },
    signal,
  });
}
