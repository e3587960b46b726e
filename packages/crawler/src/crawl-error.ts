/**
 * Why a URL was not turned into a source. The codes are stable: they are the `reason` label of
 * `sources_rejected_total` and what the crawler routes report.
 */
export type CrawlErrorReason =
  | 'invalid_url'
  | 'scheme'
  | 'credentials'
  | 'blocked_address'
  | 'dns'
  | 'robots'
  | 'too_many_redirects'
  | 'timeout'
  | 'too_large'
  | 'http_status'
  | 'unsupported_type'
  | 'network'
  | 'extraction'
  | 'empty'
  | 'budget_sources'
  | 'budget_domain'
  | 'budget_bytes'
  | 'aborted';

/** A URL the crawler refused or could not read; never carries a stack to clients. */
export class CrawlError extends Error {
  constructor(
    readonly reason: CrawlErrorReason,
    message: string,
    /** For the log only, never for callers: what the reason and message deliberately leave out. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'CrawlError';
  }
}

/**
 * The refusal of a host name that does not resolve, or resolves to an address the crawler may not
 * fetch: the same reason and message for both, so that callers cannot tell an internal name from a
 * missing one (and map a network through the crawler). `detail` says which, for the log.
 */
export function unresolvableHost(hostname: string, detail: string): CrawlError {
  return new CrawlError('dns', `The host ${hostname} does not resolve to an address the crawler may fetch.`, detail);
}

/** True for a CrawlError (also across worker-thread boundaries, where the class is lost). */
export function isCrawlError(error: unknown): error is CrawlError {
  return error instanceof CrawlError || (error instanceof Error && error.name === 'CrawlError' && 'reason' in error);
}
