import { AppError, type SourceControls } from '@research/core';

/** One search result, normalised across providers. */
export interface SearchHit {
  url: string;
  title: string;
  /** Plain text (providers' HTML highlighting removed, entities decoded); empty when the provider gave none. */
  snippet: string;
  /** ISO 8601 when the provider dates the result, otherwise null. */
  published_at: string | null;
  provider: string;
  /** 1-based position in the provider's order. */
  rank: number;
}

export interface SearchOptions {
  /** The run's language (any tag; each provider maps it to what it understands). */
  language: string;
  /** Most hits wanted; providers clamp it to what their API allows. */
  limit: number;
  signal?: AbortSignal;
  /**
   * The run's source controls, for providers that can filter natively (query operators, API parameters);
   * others ignore it. The pipeline enforces the controls on every hit either way.
   */
  filter?: SearchFilter;
}

/** What a search is asked to keep to: the source controls that concern hits. */
export type SearchFilter = Pick<SourceControls, 'include_domains' | 'exclude_domains' | 'published_after'>;

/** A search engine behind one small interface; a new provider is one new file. */
export interface SearchProvider {
  readonly name: string;
  search(query: string, options: SearchOptions): Promise<SearchHit[]>;
  /** Releases timers, watchers and worker threads (the local provider has some). */
  close?(): Promise<void>;
}

/** Why a provider request failed in the end. */
export type SearchFailureKind =
  | 'unavailable' // timeouts, connection errors, 5xx after all retries
  | 'rate_limited' // 429 after all retries, or a wait longer than we accept
  | 'auth' // the key was refused
  | 'quota' // the plan's usage limit is spent
  | 'rejected' // the provider refused the request (4xx, API error)
  | 'bad_response' // not the documented shape (malformed JSON, HTML page)
  | 'invalid_request'; // the query cannot be sent as it is (not URL-encodable): the caller's to fix

/**
 * A search provider failed after its retries: a 503 naming the provider and the cause, or, for a query it
 * cannot be sent, a 422 on `query` (the caller's to fix, like any other field rule). The message is safe
 * to store and show: it never holds an API key or a request URL.
 */
export class SearchProviderError extends AppError {
  constructor(
    readonly provider: string,
    readonly kind: SearchFailureKind,
    cause: string,
    readonly httpStatus?: number,
  ) {
    super(
      kind === 'invalid_request' ? 'validation' : 'unavailable',
      kind === 'invalid_request'
        ? `query: ${cause} (search provider ${provider} was not asked)`
        : `Search provider ${provider} ${cause}`,
      { retryable: kind === 'unavailable' || kind === 'rate_limited' },
    );
    this.name = 'SearchProviderError';
  }
}

export function isSearchProviderError(error: unknown): error is SearchProviderError {
  return error instanceof SearchProviderError;
}
