import type { AppConfig } from '@research/core';
import type { Logger } from '@research/observability';
import { isoDate, plainSnippet } from '../html-text';
import {
  DEFAULT_RETRY_POLICY,
  requestProviderJson,
  type ErrorDescriber,
  type ProviderRequest,
  type RetryPolicy,
} from '../provider-http';
import type { SearchHit, SearchOptions, SearchProvider } from '../search-provider';

/** What every remote provider is built with. */
export interface RemoteProviderDeps {
  logger: Logger;
  /** Timeouts and retries; the defaults suit production, tests shorten them. */
  policy?: Partial<RetryPolicy>;
}

/** A provider that sends a key: its endpoint can be replaced (tests point it at a loopback fake). */
export interface KeyedProviderOptions extends RemoteProviderDeps {
  apiKey: string;
  apiUrl?: string;
}

/** The search settings of the configuration (SEARCH_PROVIDER and every provider's variables). */
export type SearchSettings = AppConfig['search'];

/** One entry of the provider registry (providers/index.ts): how the configuration builds the provider. */
export interface SearchProviderRegistration {
  /** The variable this provider cannot work without when it is unset, otherwise undefined. */
  missingSetting(search: SearchSettings): string | undefined;
  /**
   * The address /ready reaches to tell whether the provider can be searched (its API), or null for a provider
   * that needs no network (local files).
   */
  endpoint(search: SearchSettings): string | null;
  /** Builds the provider; only called when missingSetting found nothing. */
  create(search: SearchSettings, deps: Required<RemoteProviderDeps>): SearchProvider;
}

export function retryPolicy(policy: Partial<RetryPolicy> | undefined): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...policy };
}

/** Clamps the requested hit count to what an API accepts. */
export function clampLimit(limit: number, max: number): number {
  return Math.max(1, Math.min(max, Math.floor(Number.isFinite(limit) ? limit : 10)));
}

/** How a remote provider asks for one search and reads the answer. */
export interface RemoteProviderSpec {
  name: string;
  deps: RemoteProviderDeps;
  /** Values never to appear in an error or log (the provider's key). */
  secrets?: readonly string[];
  describeError?: ErrorDescriber;
  request(query: string, options: SearchOptions): ProviderRequest;
  /** The hits of a JSON answer to `request`; throws when the answer is not in the documented shape. */
  parse(body: unknown, request: ProviderRequest, options: SearchOptions): SearchHit[];
}

/** A SearchProvider over one JSON HTTP request per search, with the shared timeouts, retries and errors. */
export function createRemoteProvider(spec: RemoteProviderSpec): SearchProvider {
  const http = {
    provider: spec.name,
    policy: retryPolicy(spec.deps.policy),
    logger: spec.deps.logger,
    secrets: spec.secrets,
    describeError: spec.describeError,
  };
  return {
    name: spec.name,
    async search(query, options) {
      const request = spec.request(query, options);
      return requestProviderJson(http, request, options.signal, (body) => spec.parse(body, request, options));
    },
  };
}

/**
 * A remote provider that sends a key: the key is scrubbed from every error and log, and redirects are not
 * followed (they would carry the key's header to another host).
 */
export function createKeyedProvider(
  options: KeyedProviderOptions,
  spec: Omit<RemoteProviderSpec, 'deps' | 'secrets'>,
): SearchProvider {
  return createRemoteProvider({
    ...spec,
    deps: options,
    secrets: [options.apiKey],
    request: (query, search) => ({ ...spec.request(query, search), followRedirects: false }),
  });
}

/** A provider's result entry as the common JSON APIs give it. */
export type RawResult = Record<string, unknown> | null | undefined;

/**
 * The hits of a provider's result list in its order: entries without a URL dropped, HTML removed from
 * title and snippet, `published_at` from the first date field that holds a date, ranks from 1.
 */
export function hitsOf(
  provider: string,
  results: readonly RawResult[],
  fields: { snippet: string; dates: readonly string[] },
): SearchHit[] {
  return results
    .filter((r): r is Record<string, unknown> & { url: string } => typeof r?.url === 'string' && r.url !== '')
    .map((r, i) => ({
      url: r.url,
      title: plainSnippet(r.title) || r.url,
      snippet: plainSnippet(r[fields.snippet]),
      published_at: fields.dates.reduce<string | null>((found, field) => found ?? isoDate(r[field]), null),
      provider,
      rank: i + 1,
    }));
}
