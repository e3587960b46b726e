import type { Kysely } from 'kysely';
import { htmlFileType, registrableDomain, type AppConfig } from '@research/core';
import type { DB } from '@research/database';
import type { Logger, Metrics } from '@research/observability';
import { CrawlError, isCrawlError } from './crawl-error';
import type { ExtractedDocument } from './extract/document';
import type { FetchDocumentOptions, FetchedDocument } from './fetched-document';
import { createExtractionPool, type ExtractionPool, type ExtractionPoolOptions } from './extraction-pool';
import {
  DEFAULT_MAX_PAGE_BYTES,
  DEFAULT_MAX_REDIRECTS,
  fetchPage,
  type FetchedPage,
  type FetchPageOptions,
} from './fetch-page';
import {
  collectSources,
  type FetchSourcesOptions,
  type FetchSourcesResult,
  type RunCrawlBudget,
} from './fetch-sources';
import { findCachedPage, upsertCachedPage } from './page-cache.repository';
import { createPoliteness } from './politeness';
import { CRAWLER_USER_AGENT, MAX_ROBOTS_BYTES, assertRobotsAllow, createRobotsCache } from './robots';
import { createGuardedAgents, resolveCheckedAddresses, systemResolver, type Resolver } from './safe-agent';
import { classifySourceType } from './source-type';
import { bareHostname, createAddressPolicy, normalizeCrawlUrl, parseCrawlUrl, type AddressPolicy } from './url-policy';

export interface UrlValidation {
  allowed: boolean;
  normalized_url: string | null;
  reason?: string;
}

export interface ValidateUrlOptions {
  /** Also ask the origin's robots.txt (when CRAWLER_RESPECT_ROBOTS is on); costs one guarded request per origin. */
  robots?: boolean;
}

/** An image or audio file fetched through the guard (the vision and audio routes). */
export interface FetchedMedia {
  /** The URL that answered, after redirects, normalised. */
  url: string;
  /** One of IMAGE_MEDIA_TYPES or AUDIO_MEDIA_TYPES. */
  mediaType: string;
  body: Buffer;
  bytes: number;
}

export interface FetchMediaOptions {
  kind: 'image' | 'audio';
  /** Byte cap (default: the crawler's page cap). */
  maxBytes?: number;
  signal?: AbortSignal;
}

/** Knobs beyond the environment, for tests and the benchmark. */
export interface CrawlerOptions {
  resolver?: Resolver;
  addressPolicy?: AddressPolicy;
  /** A shared pool (not closed by the crawler) or options for the crawler's own pool. */
  extraction?: ExtractionPool | ExtractionPoolOptions;
  perHostConcurrency?: number;
  politenessDelayMs?: number;
  /** Pages fetched at once by one fetchSources call. */
  concurrency?: number;
  maxPageBytes?: number;
  maxRedirects?: number;
  robotsTtlMs?: number;
  cacheTtlSeconds?: number;
  userAgent?: string;
  /**
   * Extracted text shorter than this is no source (an error stub, a script's placeholder). Swept on the
   * contradiction evaluation with the judging model (disputed claims flagged, tune / check): 1: 13/17 / 13/19,
   * 20: 13/17 / 13/19, 40: 12/17 / 13/19 (the one tune item is a 36-character key page). Lower moves tune only,
   * so 40 stays by the evaluation protocol.
   */
  minContentChars?: number;
  now?: () => Date;
}

export interface CrawlerDeps {
  config: AppConfig;
  logger: Logger;
  metrics: Metrics;
  /** The page cache lives here; without it every page is fetched. */
  db?: Kysely<DB>;
  options?: CrawlerOptions;
}

/** The crawler: URL validation, guarded fetching, extraction and run-budgeted source collection. */
export interface Crawler {
  validateUrl(url: string, options?: ValidateUrlOptions): Promise<UrlValidation>;
  /**
   * One image (png, jpeg, gif, webp) or audio file through the same guard, robots rules and politeness as
   * pages, with a byte cap; any other content type is refused before its body is read.
   */
  fetchMedia(url: string, options: FetchMediaOptions): Promise<FetchedMedia>;
  fetchDocument(url: string, options?: FetchDocumentOptions): Promise<FetchedDocument>;
  fetchSources(urls: string[], budget: RunCrawlBudget, options?: FetchSourcesOptions): Promise<FetchSourcesResult>;
  /**
   * The article of an HTML page already at hand (a file of the local corpus), by the same extraction as a
   * fetched page: Readability in the pool, the site's navigation, notices and footers left out.
   */
  extractPage(body: Uint8Array, url: string, signal?: AbortSignal): Promise<ExtractedDocument>;
  /**
   * The text of a file at hand (an upload to a collection) by the extraction a fetched page of its kind gets, in
   * the pool: HTML's article, a PDF's text layer within the PDF limits, plain text decoded.
   */
  extractFile(
    body: Uint8Array,
    file: { kind: 'html' | 'pdf' | 'text'; contentType: string; url: string; format?: 'markdown' },
    signal?: AbortSignal,
  ): Promise<ExtractedDocument>;
  close(): Promise<void>;
}

function isPool(value: CrawlerOptions['extraction']): value is ExtractionPool {
  return value !== undefined && typeof (value as ExtractionPool).extract === 'function';
}

/** Builds the crawler from the service's config; `close()` releases its pool and sockets. */
export function createCrawler(deps: CrawlerDeps): Crawler {
  const { config, logger, metrics, db } = deps;
  const options = deps.options ?? {};
  const now = options.now ?? (() => new Date());
  const policy =
    options.addressPolicy ?? createAddressPolicy({ allowPrivateNetworks: config.crawler.allowPrivateNetworks });
  const resolver = options.resolver ?? systemResolver;
  const agents = createGuardedAgents({ resolver, policy });
  const ownPool = !isPool(options.extraction);
  const pool = isPool(options.extraction) ? options.extraction : createExtractionPool(options.extraction);
  const politeness = createPoliteness({
    perHost: options.perHostConcurrency ?? 2,
    delayMs: options.politenessDelayMs ?? 250,
  });
  const userAgent = options.userAgent ?? CRAWLER_USER_AGENT;
  const maxPageBytes = options.maxPageBytes ?? DEFAULT_MAX_PAGE_BYTES;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const cacheTtlMs = (options.cacheTtlSeconds ?? config.crawler.cacheTtlSeconds) * 1000;
  const minContentChars = options.minContentChars ?? 40;
  const concurrency = Math.max(1, options.concurrency ?? 8);
  const log = logger.child({ subsystem: 'crawler' });

  const robots = createRobotsCache({
    ttlMs: options.robotsTtlMs ?? 60 * 60 * 1000,
    async fetch(robotsUrl) {
      const page = await politeness.schedule(new URL(robotsUrl).host, () =>
        fetchPage(robotsUrl, {
          agents,
          policy,
          userAgent,
          timeoutMs: Math.min(config.crawler.timeoutMs, 10_000),
          maxBytes: MAX_ROBOTS_BYTES,
          truncate: true,
          maxRedirects,
          accept: ['text', 'html'],
          allowErrorStatus: true,
        }),
      );
      return { status: page.status, body: page.body.toString('utf8'), truncated: page.truncated };
    },
  });

  const cache = pageCache({ db, ttlMs: cacheTtlMs, now, log });

  /**
   * What a fetch of the URL would check before its first byte: scheme and credentials, every address
   * of the host (after DNS), robots.txt. A cached page is only served once these pass, so a page cached
   * while it was allowed is not served after its address or robots.txt refuses it.
   */
  async function assertMayFetch(url: string, askRobots = true): Promise<void> {
    await resolveCheckedAddresses(bareHostname(parseCrawlUrl(url)), resolver, policy);
    if (askRobots && config.crawler.respectRobots) await assertRobotsAllow(robots, url);
  }

  /** Logs what a refusal keeps from the caller (e.g. that a name resolved to a private address). */
  function noteDetail(error: unknown): void {
    if (isCrawlError(error) && error.detail) log.info('crawl refused', { reason: error.reason, detail: error.detail });
  }

  function logDetail(error: unknown): never {
    noteDetail(error);
    throw error;
  }

  function fetchDocument(url: string, fetchOptions: FetchDocumentOptions = {}): Promise<FetchedDocument> {
    return readDocument(url, fetchOptions).catch(logDetail);
  }

  async function readDocument(url: string, fetchOptions: FetchDocumentOptions): Promise<FetchedDocument> {
    const requestedUrl = normalizeCrawlUrl(url);
    // A fetch makes the checks of assertMayFetch itself (the guarded agent, robots.txt per hop), so they
    // run here only without one: before serving a cached page, and before a cache-only miss is refused
    // (a refused address is reported as such, not as a want of budget).
    const cached = fetchOptions.noCache ? undefined : await cache.read(requestedUrl);
    if (cached || fetchOptions.cacheOnly) await assertMayFetch(requestedUrl);
    if (cached) {
      // The page may have come from elsewhere (a redirect): that address must pass as well.
      if (cached.url !== requestedUrl) await assertMayFetch(cached.url);
      return cached;
    }
    if (fetchOptions.cacheOnly) throw new CrawlError('budget_bytes', 'The run has no download budget left.');
    const page = await politeFetch(requestedUrl, {
      maxBytes: maxPageBytes,
      signal: fetchOptions.signal,
      acceptLanguage: fetchOptions.language ? `${fetchOptions.language}, *;q=0.5` : undefined,
      onBytes: fetchOptions.onBytes,
    });
    const document = await pool.extract(
      { body: page.body, contentType: page.contentType, kind: page.kind, url: page.finalUrl },
      fetchOptions.signal,
    );
    if (document.content.length < minContentChars) throw new CrawlError('empty', 'The page has no readable text.');
    const at = now();
    if (!fetchOptions.noCache) await cache.write([requestedUrl, page.finalUrl], document, page, at);
    return toFetched(document, {
      requestedUrl,
      finalUrl: page.finalUrl,
      fetchedAt: at,
      bytes: page.bytes,
      fromCache: false,
    });
  }

  async function validateUrl(url: string, validateOptions: ValidateUrlOptions = {}): Promise<UrlValidation> {
    let normalized: string | null = null;
    try {
      normalized = normalizeCrawlUrl(url);
      await assertMayFetch(normalized, validateOptions.robots === true);
      return { allowed: true, normalized_url: normalized };
    } catch (error) {
      if (!isCrawlError(error)) throw error;
      noteDetail(error);
      return { allowed: false, normalized_url: normalized, reason: error.reason };
    }
  }

  /**
   * One guarded request under the host's politeness slot and robots.txt (its crawl delay, and every
   * redirect hop checked against it): what fetchDocument and fetchMedia share.
   */
  async function politeFetch(
    requestedUrl: string,
    request: Pick<FetchPageOptions, 'maxBytes' | 'signal' | 'acceptLanguage' | 'onBytes' | 'accept' | 'acceptHeader'>,
  ) {
    const respectRobots = config.crawler.respectRobots;
    const delay = respectRobots ? await robots.crawlDelayMs(requestedUrl).catch(() => undefined) : undefined;
    return politeness.schedule(
      parseCrawlUrl(requestedUrl).host,
      () =>
        fetchPage(requestedUrl, {
          agents,
          policy,
          userAgent,
          timeoutMs: config.crawler.timeoutMs,
          maxRedirects,
          ...request,
          beforeHop: respectRobots ? (hop) => assertRobotsAllow(robots, hop) : undefined,
        }),
      delay,
    );
  }

  async function fetchMedia(url: string, mediaOptions: FetchMediaOptions): Promise<FetchedMedia> {
    const requestedUrl = normalizeCrawlUrl(url);
    const page = await politeFetch(requestedUrl, {
      maxBytes: mediaOptions.maxBytes ?? maxPageBytes,
      signal: mediaOptions.signal,
      accept: [mediaOptions.kind],
      acceptHeader: mediaOptions.kind === 'image' ? 'image/png,image/jpeg,image/gif,image/webp' : 'audio/*',
    }).catch(logDetail);
    return {
      url: page.finalUrl,
      mediaType: page.contentType.split(';')[0]!.trim().toLowerCase(),
      body: page.body,
      bytes: page.bytes,
    };
  }

  const fetchSources = (urls: string[], budget: RunCrawlBudget, fetchOptions?: FetchSourcesOptions) =>
    collectSources({ fetchDocument, metrics, log, concurrency }, urls, budget, fetchOptions);

  return {
    validateUrl,
    fetchMedia,
    fetchDocument,
    fetchSources,
    extractPage: (body, url, signal) =>
      pool.extract({ body, contentType: htmlFileType(body), kind: 'html', url }, signal),
    extractFile: (body, file, signal) => pool.extract({ body, ...file }, signal),
    async close() {
      agents.destroy();
      if (ownPool) await pool.close();
    },
  };
}

function toFetched(
  doc: ExtractedDocument,
  origin: { requestedUrl: string; finalUrl: string; fetchedAt: Date; bytes: number; fromCache: boolean },
): FetchedDocument {
  const { requestedUrl, finalUrl, bytes, fromCache } = origin;
  return {
    ...doc,
    url: finalUrl,
    requestedUrl,
    domain: registrableDomain(finalUrl),
    sourceType: classifySourceType(finalUrl, doc.hints),
    retrievedAt: origin.fetchedAt.toISOString(),
    bytes,
    fromCache,
  };
}

/** The page cache as the crawler uses it: a failure to read or write it never fails a fetch. */
function pageCache({ db, ttlMs, now, log }: { db?: Kysely<DB>; ttlMs: number; now: () => Date; log: Logger }) {
  // CRAWLER_CACHE_TTL_SECONDS=0 turns the page cache off.
  const cacheDb = ttlMs > 0 ? db : undefined;
  return {
    async read(url: string): Promise<FetchedDocument | undefined> {
      if (!cacheDb) return undefined;
      try {
        const cached = await findCachedPage(cacheDb, url, now());
        if (!cached) return undefined;
        const { document, finalUrl, fetchedAt } = cached;
        return toFetched(document, { requestedUrl: url, finalUrl, fetchedAt, bytes: 0, fromCache: true });
      } catch (error) {
        // The cache is an optimisation: a database hiccup must not fail the fetch.
        log.warn('page cache read failed', { error: (error as Error).message });
        return undefined;
      }
    },
    /** Stores `document`, read from `page` at `at`, under each of `urls`. */
    async write(
      urls: string[],
      document: ExtractedDocument,
      page: Pick<FetchedPage, 'finalUrl' | 'contentType' | 'bytes'>,
      at: Date,
    ): Promise<void> {
      if (!cacheDb) return;
      try {
        for (const url of new Set(urls)) {
          await upsertCachedPage(cacheDb, {
            url,
            finalUrl: page.finalUrl,
            contentType: page.contentType,
            document,
            byteSize: page.bytes,
            fetchedAt: at,
            expiresAt: new Date(at.getTime() + ttlMs),
          });
        }
      } catch (error) {
        log.warn('page cache write failed', { error: (error as Error).message });
      }
    },
  };
}
