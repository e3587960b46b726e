/** Every failure the service reports on purpose; the HTTP layer maps each to a status. */
export type ErrorCode =
  | 'bad_request'
  | 'unauthenticated'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'payload_too_large'
  | 'validation'
  | 'too_many_requests'
  | 'unavailable'
  | 'internal';

export const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = Object.freeze({
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  validation: 422,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
});

export interface AppErrorOptions {
  /** The same work may succeed if tried again (a search provider's timeout or rate limit). */
  readonly retryable?: boolean;
  /** Seconds the client should wait before asking again; the API sends it as `Retry-After`. */
  readonly retryAfterSeconds?: number;
  /** The error this one reports (kept for logs and for isDependencyUnavailable). */
  readonly cause?: unknown;
}

/** An error whose message is safe to show to the client as `detail`. */
export class AppError extends Error {
  readonly retryable: boolean;
  readonly retryAfterSeconds?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.retryable = options.retryable ?? false;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

/**
 * A database or Redis connection the service found unusable itself, where no driver error says so (a
 * session that stopped answering in time, a run lock lost with its connection): isDependencyUnavailable
 * counts it as an outage.
 */
export class DependencyUnavailableError extends AppError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('unavailable', message, {
      retryable: true,
      ...(options?.cause === undefined ? {} : { cause: options.cause }),
    });
    this.name = 'DependencyUnavailableError';
  }
}

/** The fixed texts of SPEC section 7, in one place. */
export const Details = Object.freeze({
  invalidDepth: (depth: string) => `Ungültige Tiefe '${depth}'. Gültig: 'quick', 'normal', 'deep'.`,
  notOwner: 'You may only manage your own research runs.',
  passwordRequired: 'A valid deletion-protection password is required.',
  currentPasswordRequired: 'The current deletion-protection password is required.',
  adminRequired: 'Administrator privileges are required.',
  runNotFound: (researchId: string) => `Research run ${researchId} not found`,
  noHiddenRun: 'No hidden research run found.',
  legacyRun: 'Research retention metadata is not available for this legacy run.',
  reportNotReady: 'Der Bericht ist noch nicht verfügbar. Die Recherche läuft noch oder ist fehlgeschlagen.',
});

/** The 422 of CONTRACT 4: `{"detail": "<field>: <reason>"}` for the first problem found. */
export function validationError(field: string, reason: string): AppError {
  return new AppError('validation', `${field}: ${reason}`);
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/** How a request failed on the network: no answer in time, or no connection to answer on. */
export type NetworkFailureKind = 'timeout' | 'connection';

// Socket and resolver codes that mean the other end is down, unreachable or too slow right now (not that
// the request was wrong). ECONNABORTED is also what axios reports for its own `timeout`.
const NETWORK_FAILURE_CODES: Readonly<Record<string, NetworkFailureKind>> = Object.freeze({
  ETIMEDOUT: 'timeout',
  ECONNABORTED: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  ECONNREFUSED: 'connection',
  ECONNRESET: 'connection',
  EPIPE: 'connection',
  EHOSTUNREACH: 'connection',
  ENETUNREACH: 'connection',
  ENOTFOUND: 'connection',
  EAI_AGAIN: 'connection',
  // Node's dual-stack connect (autoSelectFamily) gave up on every address.
  ERR_SOCKET_CONNECTION_TIMEOUT: 'connection',
});

// SQLSTATEs of a server that cannot serve now: connection exceptions (class 08), shutdowns, no free slot.
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[123]|53300)$/;

// What pg, pg-pool and ioredis say when their connection is gone; they attach no code to these.
const UNREACHABLE_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /^Client has encountered a connection error and is not queryable/,
  /^Connection is closed\.?$/,
  /enableOfflineQueue options is false/,
  /^Reached the max retries per request limit/,
  /^Redis is not connected/,
];

interface ErrorLike {
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/**
 * The first value `visit` finds in an error, the errors it aggregates or its causes (a few levels deep).
 * Libraries wrap the socket error that says what happened: Node reports a refused dual-stack connect as an
 * AggregateError of one error per address, and clients keep the original as `cause`.
 */
function findInErrorChain<T>(error: unknown, visit: (e: ErrorLike) => T | undefined, depth = 0): T | undefined {
  if (!error || typeof error !== 'object' || depth > 4) return undefined;
  const e = error as ErrorLike;
  const found = visit(e);
  if (found !== undefined) return found;
  if (Array.isArray(e.errors)) {
    for (const inner of e.errors) {
      const innerFound = findInErrorChain(inner, visit, depth + 1);
      if (innerFound !== undefined) return innerFound;
    }
  }
  return findInErrorChain(e.cause, visit, depth + 1);
}

function networkFailureOfCode(e: ErrorLike): NetworkFailureKind | undefined {
  return typeof e.code === 'string' && Object.hasOwn(NETWORK_FAILURE_CODES, e.code)
    ? NETWORK_FAILURE_CODES[e.code]
    : undefined;
}

/**
 * `timeout` or `connection` when an error (or one it wraps) is a socket or resolver failure that says the
 * other end is down, unreachable or too slow right now; null for every other error. The one list of such
 * codes: readiness names them, search providers retry them, the API and workers wait them out.
 */
export function networkFailureKind(error: unknown): NetworkFailureKind | null {
  return findInErrorChain(error, networkFailureOfCode) ?? null;
}

/**
 * True when an error means the database or Redis cannot be reached right now, so the same request may
 * succeed later: the API answers 503 with Retry-After, a worker retries the job without spending an
 * attempt. Errors of the request or of the code itself are not.
 */
export function isDependencyUnavailable(error: unknown): boolean {
  return (
    findInErrorChain(error, (e) => {
      if (e instanceof DependencyUnavailableError) return true;
      if (networkFailureOfCode(e) !== undefined) return true;
      if (typeof e.code === 'string' && UNAVAILABLE_SQLSTATES.test(e.code)) return true;
      const message = e.message;
      if (typeof message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(message))) return true;
      return undefined;
    }) ?? false
  );
}
