import axios from 'axios';
import { isDependencyUnavailable, networkFailureKind, withTimeout } from '@research/core';
import { probeDatabase } from '@research/database';
import { searchProviderEndpoint } from '@research/search';
import type { RunsContext } from './context';

/** GET /ready's checks: `ok`, `disabled` or `error:<type>` each, and the LLM's model when ready. */
export interface Readiness {
  status: 'ready' | 'not_ready';
  database: string;
  queue: string;
  search: string;
  llm: string;
  llm_model?: string;
}

export const DATABASE_CHECK_TIMEOUT_MS = 2000;
export const QUEUE_CHECK_TIMEOUT_MS = 2000;
/** SPEC 4.1: the LLM connectivity check waits 5 seconds. */
export const LLM_CHECK_TIMEOUT_MS = 5000;
/** The search provider's check waits as long as the LLM's. */
export const SEARCH_CHECK_TIMEOUT_MS = LLM_CHECK_TIMEOUT_MS;

/**
 * A short, secret-free name for why a check failed: `TimeoutError`, `ConnectionError` (also for a dependency that
 * cannot serve now without a socket code: pg's "Connection terminated unexpectedly", a shutdown's SQLSTATE; what the
 * API answers 503 for) or the error's type.
 */
export function errorType(error: unknown): string {
  // Duck-typed, not instanceof: errors from other realms (vm contexts, test sandboxes) are errors too.
  if (error === null || typeof error !== 'object') return 'Error';
  const { name } = error as { name?: unknown };
  // Our own deadlines: withTimeout's TimeoutError and AbortSignal.timeout's DOMException.
  if (name === 'TimeoutError') return 'TimeoutError';
  const network = networkFailureKind(error);
  if (network) return network === 'timeout' ? 'TimeoutError' : 'ConnectionError';
  if (isDependencyUnavailable(error)) return 'ConnectionError';
  const ctorName = (error as { constructor?: { name?: unknown } }).constructor?.name;
  const type =
    typeof ctorName === 'string' && ctorName !== 'Object' ? ctorName : typeof name === 'string' ? name : 'Error';
  return /^[A-Za-z][A-Za-z0-9_]{0,63}$/.test(type) ? type : 'Error';
}

async function checkDatabase(ctx: Pick<RunsContext, 'db'>): Promise<string> {
  try {
    await withTimeout(probeDatabase(ctx.db), DATABASE_CHECK_TIMEOUT_MS, 'database check');
    return 'ok';
  } catch (error) {
    return `error:${errorType(error)}`;
  }
}

async function checkQueue(ctx: Pick<RunsContext, 'queue'>): Promise<string> {
  try {
    return (await withTimeout(ctx.queue.ping(), QUEUE_CHECK_TIMEOUT_MS, 'queue check')) ? 'ok' : 'error';
  } catch {
    return 'error';
  }
}

function firstModelId(body: unknown): string | undefined {
  const data = (body as { data?: unknown } | null)?.data;
  const first = Array.isArray(data) ? (data[0] as { id?: unknown } | undefined) : undefined;
  return typeof first?.id === 'string' ? first.id : undefined;
}

/**
 * A GET of `url` within `timeoutMs` for the whole exchange (`timeout` alone does not bound a slow connect): its
 * status and body, whatever the status, or `error:<type>` when no answer came (TimeoutError, ConnectionError, …).
 */
async function reach(
  url: string,
  timeoutMs: number,
  options: { headers?: Record<string, string>; responseType?: 'json' | 'text' } = {},
): Promise<{ status: number; data: unknown } | { error: string }> {
  const deadline = AbortSignal.timeout(timeoutMs);
  try {
    const response = await axios.get(url, {
      timeout: timeoutMs,
      signal: deadline,
      headers: options.headers ?? {},
      maxContentLength: 1024 * 1024,
      maxRedirects: 0,
      ...(options.responseType ? { responseType: options.responseType } : {}),
      validateStatus: () => true,
    });
    return { status: response.status, data: response.data };
  } catch (error) {
    // axios reports the deadline's abort as a bare cancel (ERR_CANCELED) that does not say why.
    return { error: `error:${deadline.aborted ? 'TimeoutError' : errorType(error)}` };
  }
}

/** GET {LLM_BASE_URL}/models (CONTRACT 4): `ok`, `disabled`, `error:<HTTP status>` or `error:<type>`. */
async function checkLlm(ctx: Pick<RunsContext, 'config'>): Promise<{ llm: string; model?: string }> {
  const { baseUrl, apiKey, model } = ctx.config.llm;
  if (!baseUrl) return { llm: 'disabled' };
  const answer = await reach(`${baseUrl}/models`, LLM_CHECK_TIMEOUT_MS, {
    headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {},
  });
  if ('error' in answer) return { llm: answer.error };
  if (answer.status < 200 || answer.status >= 300) return { llm: `error:${answer.status}` };
  return { llm: 'ok', model: model ?? firstModelId(answer.data) ?? '' };
}

/**
 * The configured search provider's API (searchProviderEndpoint), asked with a GET and no key: `ok` when it answers
 * below 500 (a 401 or 405 without a key is an answer: the provider is there), `error:<HTTP status>` for a server
 * error, `error:<type>` when it cannot be reached (no network: ConnectionError, TimeoutError); `ok` for a provider
 * that needs no network (local files, checked when the process starts).
 */
async function checkSearch(ctx: Pick<RunsContext, 'config'>): Promise<string> {
  const endpoint = searchProviderEndpoint(ctx.config.search);
  if (!endpoint) return 'ok';
  const answer = await reach(endpoint, SEARCH_CHECK_TIMEOUT_MS, { responseType: 'text' });
  if ('error' in answer) return answer.error;
  return answer.status < 500 ? 'ok' : `error:${answer.status}`;
}

/**
 * SPEC 4.1 /ready: `ready` when the database, the queue, the search provider and (if configured) the LLM answer. No LLM
 * configured is `disabled` and does not make the service not ready (CONTRACT 4).
 */
export async function checkReadiness(ctx: Pick<RunsContext, 'db' | 'queue' | 'config'>): Promise<Readiness> {
  const [database, queue, search, llm] = await Promise.all([
    checkDatabase(ctx),
    checkQueue(ctx),
    checkSearch(ctx),
    checkLlm(ctx),
  ]);
  const ready = database === 'ok' && queue === 'ok' && search === 'ok' && (llm.llm === 'ok' || llm.llm === 'disabled');
  return {
    status: ready ? 'ready' : 'not_ready',
    database,
    queue,
    search,
    llm: llm.llm,
    ...(ready && llm.model !== undefined ? { llm_model: llm.model } : {}),
  };
}
