import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { registrableDomain, type AppConfig, type SourceDraft } from '@research/core';
import type { DB } from '@research/database';
import type { Logger, Metrics } from '@research/observability';
import { CrawlError, isCrawlError, type CrawlErrorReason } from './crawl-error';
import { createSourceDeduper, type KeptText } from './dedupe';
import type { ExtractedDocument } from './extract/document';
import { createExtractionPool, type ExtractionPool, type ExtractionPoolOptions } from './extraction-pool';
import { DEFAULT_MAX_PAGE_BYTES, DEFAULT_MAX_REDIRECTS, fetchPage, type FetchPageOptions } from './fetch-page';
import { findCachedPage, upsertCachedPage } from './page-cache.repository';
import { createPoliteness } from './politeness';
import { CRAWLER_USER_AGENT, MAX_ROBOTS_BYTES, assertRobotsAllow, createRobotsCache } from './robots';
import { createGuardedAgents, resolveCheckedAddresses, systemResolver, type Resolver } from './safe-agent';
import { classifySourceType } from './source-type';
import { bareHostname, createAddressPolicy, normalizeCrawlUrl, parseCrawlUrl, type AddressPolicy } from './url-policy';

/** What a run has already used of its crawl budgets (carried across rounds by the caller). */
export interface CrawlUsage {
  sources: number;
  bytes: number;
  /** Pages kept per registrable domain. */
  pages_per_domain: Record<string, number>;
}

/** The crawl part of a run's budget (SPEC 8) and what earlier rounds used of it. */
export interface RunCrawlBudget {
  max_sources: number;
  max_pages_per_domain: number;
  max_total_download_bytes: number;
  used?: CrawlUsage;
}

/** One URL the crawler did not turn into a source, and why. */
export interface RejectedUrl {
  url: string;
  reason: CrawlErrorReason;
}

export interface FetchSourcesOptions {
  signal?: AbortSignal;
  /** The run's language: sent as Accept-Language. */
  language?: string;
  /** Sources the run kept in earlier rounds: the same page again counts as a duplicate. */
  existing?: Array<{ url: string; content?: string | null }>;
}

export interface FetchSourcesResult {
  sources: SourceDraft[];
  rejected: RejectedUrl[];
  duplicates: number;
  /** Budget use after this call (earlier use included): pass it as `used` next round. */
  usage: CrawlUsage;
}

/** One fetched and extracted page. */
export interface FetchedDocument extends ExtractedDocument {
  /** The page's URL after redirects, normalised. */
  url: string;
  /** The URL asked for, normalised. */
  requestedUrl: string;
  domain: string;
  sourceType: string;
  retrievedAt: string;
  /** Bytes downloaded for it (0 when served from the page cache). */
  bytes: number;
  fromCache: boolean;
}

export interface FetchDocumentOptions {
  signal?: AbortSignal;
  language?: string;
  /** Skip the page cache (read and write). */
  noCache?: boolean;
  /** Serve from the cache or refuse with `budget_bytes` (the run has no download budget left). */
  cacheOnly?: boolean;
  /** Run-budget hook: called per received chunk; false aborts the download. */
  onBytes?: (bytes: number) => boolean;
}

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
  /** Extracted text shorter than this is no source. */
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
  close(): Promise<void>;
}

function isPool(value: CrawlerOptions['extraction']): value is ExtractionPool {
  return value !== undefined && typeof (value as ExtractionPool).extract === 'function';
}

/** A waitable signal that fires whenever an in-flight fetch finishes. */
function completionSignal() {
  let waiters: Array<() => void> = [];
  return {
    wait: () => new Promise<void>((resolve) => waiters.push(resolve)),
    fire: () => {
      const current = waiters;
      waiters = [];
      for (const resolve of current) resolve();
    },
  };
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

  // CRAWLER_CACHE_TTL_SECONDS=0 turns the page cache off.
  const cacheEnabled = Boolean(db) && cacheTtlMs > 0;

  async function readCache(url: string): Promise<FetchedDocument | undefined> {
    if (!db || !cacheEnabled) return undefined;
    try {
      const cached = await findCachedPage(db, url, now());
      if (!cached) return undefined;
      return toFetched(cached.document, cached.finalUrl, url, cached.fetchedAt, 0, true);
    } catch (error) {
      // The cache is an optimisation: a database hiccup must not fail the fetch.
      log.warn('page cache read failed', { error: (error as Error).message });
      return undefined;
    }
  }

  async function writeCache(
    document: ExtractedDocument,
    urls: string[],
    finalUrl: string,
    contentType: string,
    bytes: number,
    at: Date,
  ) {
    if (!db || !cacheEnabled) return;
    try {
      for (const url of new Set(urls)) {
        await upsertCachedPage(db, {
          url,
          finalUrl,
          contentType,
          document,
          byteSize: bytes,
          fetchedAt: at,
          expiresAt: new Date(at.getTime() + cacheTtlMs),
        });
      }
    } catch (error) {
      log.warn('page cache write failed', { error: (error as Error).message });
    }
  }

  function toFetched(
    doc: ExtractedDocument,
    finalUrl: string,
    requestedUrl: string,
    at: Date,
    bytes: number,
    fromCache: boolean,
  ): FetchedDocument {
    return {
      ...doc,
      url: finalUrl,
      requestedUrl,
      domain: registrableDomain(finalUrl),
      sourceType: classifySourceType(finalUrl, doc.hints),
      retrievedAt: at.toISOString(),
      bytes,
      fromCache,
    };
  }

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
    const cached = fetchOptions.noCache ? undefined : await readCache(requestedUrl);
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
    if (!fetchOptions.noCache)
      await writeCache(document, [requestedUrl, page.finalUrl], page.finalUrl, page.contentType, page.bytes, at);
    return toFetched(document, page.finalUrl, requestedUrl, at, page.bytes, false);
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

  async function fetchSources(
    urls: string[],
    budget: RunCrawlBudget,
    fetchOptions: FetchSourcesOptions = {},
  ): Promise<FetchSourcesResult> {
    const usage: CrawlUsage = {
      sources: budget.used?.sources ?? 0,
      bytes: budget.used?.bytes ?? 0,
      pages_per_domain: { ...(budget.used?.pages_per_domain ?? {}) },
    };
    const deduper = await createSourceDeduper(fetchOptions.existing);
    const kept: Array<{ index: number; domain: string; source: SourceDraft }> = [];
    const rejected: RejectedUrl[] = [];
    let duplicates = 0;
    const reject = (url: string, reason: CrawlErrorReason) => {
      rejected.push({ url, reason });
      if (reason !== 'aborted') metrics.sourcesRejected(reason);
      log.debug('source rejected', { reason });
    };

    const candidates: Array<{ index: number; url: string; domain: string }> = [];
    urls.forEach((raw, index) => {
      let url: string;
      try {
        url = normalizeCrawlUrl(raw);
      } catch (error) {
        reject(String(raw), isCrawlError(error) ? error.reason : 'invalid_url');
        return;
      }
      if (deduper.seenUrl(url)) duplicates++;
      else candidates.push({ index, url, domain: registrableDomain(url) });
    });

    let inFlight = 0;
    const inFlightByDomain = new Map<string, number>();
    const finished = completionSignal();
    const domainCount = (domain: string) => usage.pages_per_domain[domain] ?? 0;
    const onBytes = (bytes: number) => {
      if (usage.bytes + bytes > budget.max_total_download_bytes) {
        // The download stops here; what is left of the budget cannot hold another page's next chunk either.
        usage.bytes = Math.max(usage.bytes, budget.max_total_download_bytes);
        return false;
      }
      usage.bytes += bytes;
      return true;
    };

    /**
     * Of near-identical pages fetched in one round, the one listed first is kept (the search's ranking, not
     * whichever answered first), unless its domain has no page left in the budget.
     */
    function keepEarlierListed(copied: KeptText, index: number, domain: string, document: FetchedDocument): void {
      const holder = kept.find((k) => k.index === copied.owner);
      if (!holder || holder.index < index) return;
      if (holder.domain !== domain) {
        if (domainCount(domain) >= budget.max_pages_per_domain) return;
        const left = domainCount(holder.domain) - 1;
        if (left > 0) usage.pages_per_domain[holder.domain] = left;
        else delete usage.pages_per_domain[holder.domain];
        usage.pages_per_domain[domain] = domainCount(domain) + 1;
      }
      Object.assign(holder, { index, domain, source: toSourceDraft(document) });
      copied.owner = index;
    }

    async function attempt(candidate: { index: number; url: string; domain: string }): Promise<void> {
      const { url, domain } = candidate;
      // Wait while in-flight fetches could still fill the source or domain budget; refuse once used up.
      for (;;) {
        if (fetchOptions.signal?.aborted) return reject(url, 'aborted');
        if (usage.sources >= budget.max_sources) return reject(url, 'budget_sources');
        if (domainCount(domain) >= budget.max_pages_per_domain) return reject(url, 'budget_domain');
        const domainBusy = inFlightByDomain.get(domain) ?? 0;
        if (
          usage.sources + inFlight < budget.max_sources &&
          domainCount(domain) + domainBusy < budget.max_pages_per_domain
        )
          break;
        await finished.wait();
      }
      inFlight++;
      inFlightByDomain.set(domain, (inFlightByDomain.get(domain) ?? 0) + 1);
      try {
        const document = await fetchDocument(url, {
          signal: fetchOptions.signal,
          language: fetchOptions.language,
          onBytes,
          cacheOnly: usage.bytes >= budget.max_total_download_bytes,
        });
        const finalDomain = document.domain || domain;
        const sameSiteCanonical =
          document.canonicalUrl && registrableDomain(document.canonicalUrl) === finalDomain
            ? safeNormalize(document.canonicalUrl)
            : null;
        const sameUrl =
          (document.url !== url && deduper.seenUrl(document.url)) ||
          (sameSiteCanonical !== null &&
            sameSiteCanonical !== url &&
            sameSiteCanonical !== document.url &&
            deduper.seenUrl(sameSiteCanonical));
        if (sameUrl) {
          duplicates++;
          return;
        }
        const copied = await deduper.seenText(document.content, candidate.index);
        if (copied) {
          duplicates++;
          keepEarlierListed(copied, candidate.index, finalDomain, document);
          return;
        }
        if (usage.sources >= budget.max_sources) return reject(url, 'budget_sources');
        usage.sources++;
        usage.pages_per_domain[finalDomain] = domainCount(finalDomain) + 1;
        kept.push({ index: candidate.index, domain: finalDomain, source: toSourceDraft(document) });
      } catch (error) {
        reject(url, isCrawlError(error) ? error.reason : 'network');
        if (!isCrawlError(error)) log.warn('unexpected crawl failure', { error: (error as Error).message });
      } finally {
        inFlight--;
        const left = (inFlightByDomain.get(domain) ?? 1) - 1;
        if (left > 0) inFlightByDomain.set(domain, left);
        else inFlightByDomain.delete(domain);
        finished.fire();
      }
    }

    const concurrency = Math.max(1, options.concurrency ?? 8);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(concurrency, candidates.length) }, async () => {
        while (next < candidates.length) await attempt(candidates[next++]);
      }),
    );

    if (duplicates > 0) metrics.duplicateSources(duplicates);
    kept.sort((a, b) => a.index - b.index);
    return { sources: kept.map((k) => k.source), rejected, duplicates, usage };
  }

  return {
    validateUrl,
    fetchMedia,
    fetchDocument,
    fetchSources,
    async close() {
      agents.destroy();
      if (ownPool) await pool.close();
    },
  };
}

function safeNormalize(url: string): string | null {
  try {
    return normalizeCrawlUrl(url);
  } catch {
    return null;
  }
}

/** The source record of a fetched document (SPEC 2.2 plus the text the analysis reads). */
export function toSourceDraft(document: FetchedDocument): SourceDraft {
  return {
    id: randomUUID(),
    url: document.url,
    title: document.title,
    domain: document.domain,
    source_type: document.sourceType,
    retrieved_at: document.retrievedAt,
    content: document.content,
    published_at: document.publishedAt,
    language: document.language,
  };
}
