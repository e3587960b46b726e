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
  ) {
    super(message);
    this.name = 'CrawlError';
  }
}

/** True for a CrawlError (also across worker-thread boundaries, where the class is lost). */
export function isCrawlError(error: unknown): error is CrawlError {
  return error instanceof CrawlError || (error instanceof Error && error.name === 'CrawlError' && 'reason' in error);
}
