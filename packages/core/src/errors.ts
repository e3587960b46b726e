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
  ) {
    super(message);
    this.name = 'AppError';
  }

  get status(): number {
    return ERROR_STATUS[this.code];
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
