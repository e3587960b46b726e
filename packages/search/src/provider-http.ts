import axios, { type AxiosResponse } from 'axios';
import {
  isRetryableStatus,
  networkFailureKind,
  parseRetryAfter,
  VERSION,
  withRetries,
  type NetworkFailureKind,
} from '@research/core';
import { redactText, type Logger } from '@research/observability';
import { SearchProviderError, type SearchFailureKind } from './search-provider';

export const USER_AGENT = `research-service/${VERSION} (self-hosted research service)`;

/** How one provider request is timed and retried. */
export interface RetryPolicy {
  /** Per attempt, from sending to the last byte of the answer. */
  readonly timeoutMs: number;
  /** Extra attempts after the first on 429, 408, 5xx, timeouts and transient network errors. */
  readonly retries: number;
  /** First backoff step; each later step doubles, with jitter. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  /** The longest Retry-After (or rate-limit reset) we wait for; a longer one fails at once. */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = Object.freeze({
  timeoutMs: 10_000,
  retries: 3,
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 30_000,
});

export interface ProviderRequest {
  method: 'GET' | 'POST';
  url: string;
  params?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  body?: unknown;
  /** Keyed providers send their key in a header that redirects would carry to another host: refuse redirects. */
  followRedirects?: boolean;
}

/**
 * A non-2xx answer as a provider understands it; undefined leaves it to the generic rules. `detail` is the
 * body's error text (errorTextOf), already safe to quote (safeText, the provider's key scrubbed).
 */
export type ErrorDescriber = (
  status: number,
  body: unknown,
  detail: string | undefined,
) => { kind: SearchFailureKind; cause: string; retry?: boolean } | undefined;

export interface ProviderHttpOptions {
  provider: string;
  policy: RetryPolicy;
  logger: Logger;
  /** Values that must never appear in an error or log (the provider's key); scrubbed from provider texts. */
  secrets?: readonly string[];
  describeError?: ErrorDescriber;
}

/** A failed attempt, and whether another one may help. */
interface Failure {
  kind: SearchFailureKind;
  cause: string;
  retry: boolean;
  status?: number;
  waitMs?: number;
  /** The provider could not be reached at all (no route, no DNS, refused): the machine may have no network. */
  unreached?: boolean;
}

/** What a run that could not reach its provider is told to do without a network. */
const WITHOUT_NETWORK =
  '. Without a network, SEARCH_PROVIDER=local with LOCAL_CORPUS_DIR researches a folder of your own files';

/** Carries a failed attempt's Failure through the retry loop to the final SearchProviderError. */
class AttemptFailure extends Error {
  constructor(readonly failure: Failure) {
    super(failure.cause);
  }
}

/** Thrown by a response parser to ask for another attempt (e.g. MediaWiki's maxlag). */
export class RetryableResponseError extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** Milliseconds a 429/503 asks us to wait: Retry-After (seconds or HTTP date) or Brave's X-RateLimit-Reset. */
export function retryAfterMs(headers: Record<string, unknown>, now = Date.now()): number | undefined {
  const header = (name: string) => {
    const value = headers[name];
    return typeof value === 'string' ? value.trim() : Array.isArray(value) ? String(value[0]).trim() : undefined;
  };
  const retryAfter = parseRetryAfter(header('retry-after'), now);
  if (retryAfter !== undefined) return retryAfter;
  // Brave: "X-RateLimit-Reset: 1, 1419704" = seconds until each window (per second, per month) resets.
  // Only the windows that are spent matter; X-RateLimit-Remaining lists what is left in the same order.
  const reset = header('x-ratelimit-reset');
  if (reset) {
    const resets = reset.split(',').map((v) => Number(v.trim()));
    const remaining = (header('x-ratelimit-remaining') ?? '').split(',').map((v) => Number(v.trim()));
    const spent = resets.filter(
      (r, i) => Number.isFinite(r) && (remaining[i] === undefined || remaining[i] === 0 || Number.isNaN(remaining[i]!)),
    );
    const waits = spent.length > 0 ? spent : resets.filter(Number.isFinite);
    if (waits.length > 0) return Math.round(Math.max(...waits) * 1000);
  }
  return undefined;
}

/** Provider-supplied text made safe for messages: no secrets, no credentials, bounded length. */
export function safeText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('[REDACTED]');
  out = redactText(out).replace(/\s+/g, ' ').trim();
  return out.length > 200 ? `${out.slice(0, 197)}...` : out;
}

/** The error text of the common JSON error bodies (`{detail}`, `{error: {message|info|detail}}`, `{message}`). */
export function errorTextOf(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().startsWith('<') ? undefined : body || undefined;
  if (!body || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  for (const candidate of [b.detail, b.error, b.message]) {
    if (typeof candidate === 'string' && candidate) return candidate;
    if (candidate && typeof candidate === 'object') {
      const inner = errorTextOf(candidate);
      if (inner) return inner;
    }
  }
  for (const key of ['info', 'code']) if (typeof b[key] === 'string' && b[key]) return b[key] as string;
  return undefined;
}

// What a network failure on the way to the provider was, in words; core decides which failures those are.
const NETWORK_FAILURE_TEXT: ReadonlyMap<string, string> = new Map([
  ['ECONNREFUSED', 'refused the connection'],
  ['ECONNRESET', 'closed the connection'],
  ['EPIPE', 'closed the connection'],
  ['ENOTFOUND', 'could not be resolved (DNS)'],
  ['EAI_AGAIN', 'could not be resolved (DNS)'],
  ['EHOSTUNREACH', 'is unreachable'],
  ['ENETUNREACH', 'is unreachable'],
]);
const NETWORK_FAILURE_KIND_TEXT: Readonly<Record<NetworkFailureKind, string>> = {
  timeout: 'did not answer in time',
  connection: 'could not be reached',
};

/**
 * A request that got no HTTP answer. Only timeouts and transient network errors are retried: an error
 * raised before anything was sent (a query that cannot be URL-encoded, an invalid URL) fails the same way
 * on every attempt, and so does a connection failure we cannot name (TLS, redirect loops).
 */
function networkCause(error: unknown, timedOut: boolean, timeoutMs: number): Failure {
  if (timedOut) return { kind: 'unavailable', cause: `timed out after ${timeoutMs} ms`, retry: true };
  const code = (error as { code?: unknown })?.code;
  if (code === 'ERR_BAD_RESPONSE' || /maxContentLength/i.test(String((error as Error)?.message)))
    return { kind: 'bad_response', cause: 'answered with an oversized body', retry: false };
  const network = networkFailureKind(error);
  if (network) {
    const text = typeof code === 'string' ? NETWORK_FAILURE_TEXT.get(code) : undefined;
    return {
      kind: 'unavailable',
      cause: text ?? NETWORK_FAILURE_KIND_TEXT[network],
      retry: true,
      unreached: network === 'connection',
    };
  }
  if (!(axios.isAxiosError(error) && error.request)) {
    const name = (error as Error | undefined)?.name;
    // Only a query that cannot be URL-encoded is the caller's to fix; anything else that fails before a
    // byte is sent (an invalid URL, a header value) is ours.
    return name === 'URIError'
      ? { kind: 'invalid_request', cause: 'must be valid Unicode (no unpaired surrogates)', retry: false }
      : { kind: 'unavailable', cause: `the request could not be built (${name ?? 'Error'})`, retry: false };
  }
  return {
    kind: 'unavailable',
    cause: typeof code === 'string' ? `could not be reached (${code})` : 'could not be reached',
    retry: false,
  };
}

function parseJson(text: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof text !== 'string') return { ok: true, value: text };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function httpFailure(response: AxiosResponse, options: ProviderHttpOptions): Failure {
  const status = response.status;
  const parsed = parseJson(response.data);
  const body = parsed.ok ? parsed.value : response.data;
  if (status === 429) {
    return { kind: 'rate_limited', cause: 'HTTP 429', retry: true, status, waitMs: retryAfterMs(response.headers) };
  }
  const detail = errorTextOf(body);
  const quoted = detail ? safeText(detail, options.secrets) : undefined;
  const described = options.describeError?.(status, body, quoted);
  if (described) return { ...described, retry: described.retry ?? false, status };
  if (isRetryableStatus(status)) {
    return {
      kind: 'unavailable',
      cause: `HTTP ${status}`,
      retry: true,
      status,
      waitMs: status === 503 ? retryAfterMs(response.headers) : undefined,
    };
  }
  if (status === 401 || status === 403) return { kind: 'auth', cause: `HTTP ${status}`, retry: false, status };
  return {
    kind: 'rejected',
    cause: quoted !== undefined ? `HTTP ${status}: ${quoted}` : `HTTP ${status}`,
    retry: false,
    status,
  };
}

function finalError(provider: string, failure: Failure, attempts: number, extraWait?: number): SearchProviderError {
  const tries = attempts > 1 ? `; gave up after ${attempts} attempts` : '';
  const text = (() => {
    switch (failure.kind) {
      case 'unavailable':
        return `is unavailable: ${failure.cause}${tries}${failure.unreached ? WITHOUT_NETWORK : ''}`;
      case 'rate_limited':
        return extraWait !== undefined
          ? `is rate limiting requests (asked to wait ${Math.ceil(extraWait / 1000)} s)`
          : `is rate limiting requests: ${failure.cause}${tries}`;
      case 'auth':
        return `refused the API key or access (${failure.cause})`;
      case 'quota':
        return `refused the request: ${failure.cause}`;
      case 'rejected':
        return `refused the request (${failure.cause})`;
      case 'bad_response':
        return `${failure.cause}${tries}`;
      case 'invalid_request':
        return failure.cause;
    }
  })();
  return new SearchProviderError(provider, failure.kind, text, failure.status);
}

/** The answer of a 2xx response through `parse`; anything else is the attempt's AttemptFailure. */
function answerOf<T>(response: AxiosResponse<string>, options: ProviderHttpOptions, parse: (body: unknown) => T): T {
  if (response.status < 200 || response.status >= 300) throw new AttemptFailure(httpFailure(response, options));
  const parsed = parseJson(response.data);
  if (!parsed.ok) {
    throw new AttemptFailure({ kind: 'bad_response', cause: 'answered with malformed JSON', retry: false });
  }
  try {
    return parse(parsed.value);
  } catch (error) {
    if (error instanceof SearchProviderError) throw error;
    throw new AttemptFailure(
      error instanceof RetryableResponseError
        ? { kind: 'unavailable', cause: safeText(error.reason, options.secrets), retry: true }
        : { kind: 'bad_response', cause: 'answered in an unexpected shape', retry: false },
    );
  }
}

/** One attempt: the request under the per-attempt timeout, its answer through `parse`. */
async function attemptRequest<T>(
  options: ProviderHttpOptions,
  request: ProviderRequest,
  signal: AbortSignal | undefined,
  parse: (body: unknown) => T,
): Promise<T> {
  const { timeoutMs } = options.policy;
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('timeout'));
  }, timeoutMs);
  const onAbort = () => controller.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  let response: AxiosResponse<string>;
  try {
    response = await axios.request<string>({
      method: request.method,
      url: request.url,
      params: request.params,
      data: request.body,
      headers: { 'User-Agent': USER_AGENT, Accept: 'application/json', ...request.headers },
      signal: controller.signal,
      responseType: 'text',
      transformResponse: [(data: unknown) => data],
      validateStatus: () => true,
      maxRedirects: request.followRedirects === false ? 0 : 3,
      maxContentLength: MAX_BODY_BYTES,
      maxBodyLength: MAX_BODY_BYTES,
      proxy: false,
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason ?? error;
    throw new AttemptFailure(networkCause(error, timedOut, timeoutMs));
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
  return answerOf(response, options, parse);
}

/**
 * Sends one provider request with a per-attempt timeout and retries (core's withRetries: exponential backoff
 * with jitter, Retry-After honoured) on 429, 408, 5xx, timeouts and transient network errors, then hands the
 * JSON body to `parse`. Ends in a SearchProviderError naming the provider; aborting `signal` rejects with its
 * reason. Nothing here logs or throws the request URL, headers or body, which may carry the key.
 */
export async function requestProviderJson<T>(
  options: ProviderHttpOptions,
  request: ProviderRequest,
  signal: AbortSignal | undefined,
  parse: (body: unknown) => T,
): Promise<T> {
  const { policy, provider, logger } = options;
  let attempts = 0;
  try {
    return await withRetries(
      (attempt) => {
        attempts = attempt;
        return attemptRequest(options, request, signal, parse);
      },
      {
        policy: { ...policy, attempts: policy.retries + 1 },
        signal,
        classify: (error) =>
          error instanceof AttemptFailure
            ? { retry: error.failure.retry, afterMs: error.failure.waitMs }
            : { retry: false },
        onRetry: ({ attempt, error, delayMs }) => {
          const { cause, status } = (error as AttemptFailure).failure;
          logger.warn('search provider request failed; retrying', {
            provider,
            attempt,
            cause,
            status,
            delay_ms: delayMs,
          });
        },
      },
    );
  } catch (error) {
    if (!(error instanceof AttemptFailure)) throw error;
    const { failure } = error;
    const tooLong = failure.waitMs !== undefined && failure.waitMs > policy.maxRetryAfterMs;
    throw finalError(provider, failure, attempts, tooLong ? failure.waitMs : undefined);
  }
}
