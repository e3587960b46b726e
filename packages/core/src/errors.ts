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

/** An error whose message is safe to show to the client as `detail`. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly retryable = false,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
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
    super('unavailable', message, true, options);
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

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

// Socket errors that mean the other end is down or unreachable right now (not that a request was wrong).
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

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

/**
 * True when an error means the database or Redis cannot be reached right now, so the same request may
 * succeed later: the API answers 503 with Retry-After, a worker retries the job without spending an
 * attempt. Errors of the request or of the code itself are not.
 */
export function isDependencyUnavailable(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 4) return false;
  if (error instanceof DependencyUnavailableError) return true;
  const e = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (UNREACHABLE_CODES.has(e.code) || UNAVAILABLE_SQLSTATES.test(e.code))) return true;
  if (typeof e.message === 'string' && UNREACHABLE_MESSAGES.some((pattern) => pattern.test(e.message as string)))
    return true;
  // Node reports a refused dual-stack connect as an AggregateError of one error per address.
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDependencyUnavailable(inner, depth + 1))) return true;
  return isDependencyUnavailable(e.cause, depth + 1);
}
