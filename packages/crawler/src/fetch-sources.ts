import { randomUUID } from 'node:crypto';
import { registrableDomain, type SourceDraft } from '@research/core';
import type { Logger, Metrics } from '@research/observability';
import { isCrawlError, type CrawlErrorReason } from './crawl-error';
import type { FetchDocumentOptions, FetchedDocument } from './fetched-document';
import { createSourceDeduper, type KeptText, type SourceDeduper } from './dedupe';
import { normalizeCrawlUrl } from './url-policy';

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

/** What collecting sources needs of the crawler. */
export interface SourceFetcher {
  fetchDocument(url: string, options: FetchDocumentOptions): Promise<FetchedDocument>;
  metrics: Metrics;
  log: Logger;
  /** Pages fetched at once by one round. */
  concurrency: number;
}

interface Candidate {
  /** Its position in the round's list: of near-identical pages, the lower one is kept. */
  index: number;
  url: string;
  domain: string;
}

/**
 * One round of a run's source collection: the URLs fetched a few at a time within the run's source,
 * per-domain and download budgets, duplicates (by URL or by text) counted instead of kept, and the
 * sources returned in the order they were listed.
 */
export async function collectSources(
  fetcher: SourceFetcher,
  urls: string[],
  budget: RunCrawlBudget,
  options: FetchSourcesOptions = {},
): Promise<FetchSourcesResult> {
  const deduper = await createSourceDeduper(options.existing);
  const round = createRound(fetcher, budget, options, deduper);
  const candidates = round.candidates(urls);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(fetcher.concurrency, candidates.length) }, async () => {
      while (next < candidates.length) await round.attempt(candidates[next++]);
    }),
  );
  return round.result();
}

function createRound(
  { fetchDocument, metrics, log }: SourceFetcher,
  budget: RunCrawlBudget,
  fetchOptions: FetchSourcesOptions,
  deduper: SourceDeduper,
) {
  const usage: CrawlUsage = {
    sources: budget.used?.sources ?? 0,
    bytes: budget.used?.bytes ?? 0,
    pages_per_domain: { ...(budget.used?.pages_per_domain ?? {}) },
  };
  const kept: Array<{ index: number; domain: string; source: SourceDraft }> = [];
  const rejected: RejectedUrl[] = [];
  let duplicates = 0;
  const inFlight = inFlightCounter();
  const domainCount = (domain: string) => usage.pages_per_domain[domain] ?? 0;

  const reject = (url: string, reason: CrawlErrorReason) => {
    rejected.push({ url, reason });
    if (reason !== 'aborted') metrics.sourcesRejected(reason);
    log.debug('source rejected', { reason });
  };

  /** The URLs worth fetching: normalised, neither malformed nor already seen. */
  function candidates(urls: string[]): Candidate[] {
    const found: Candidate[] = [];
    urls.forEach((raw, index) => {
      let url: string;
      try {
        url = normalizeCrawlUrl(raw);
      } catch (error) {
        reject(String(raw), isCrawlError(error) ? error.reason : 'invalid_url');
        return;
      }
      if (deduper.seenUrl(url)) duplicates++;
      else found.push({ index, url, domain: registrableDomain(url) });
    });
    return found;
  }

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
   * Waits while in-flight fetches could still fill the source or domain budget, then holds a slot for
   * one page of the domain (in the same tick as the check); says why not once a budget is used up.
   */
  async function holdSlot(domain: string): Promise<CrawlErrorReason | null> {
    for (;;) {
      if (fetchOptions.signal?.aborted) return 'aborted';
      if (usage.sources >= budget.max_sources) return 'budget_sources';
      if (domainCount(domain) >= budget.max_pages_per_domain) return 'budget_domain';
      if (
        usage.sources + inFlight.total() < budget.max_sources &&
        domainCount(domain) + inFlight.of(domain) < budget.max_pages_per_domain
      ) {
        inFlight.start(domain);
        return null;
      }
      await inFlight.finished();
    }
  }

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

  /** Keeps a fetched page as a source unless it repeats one or the source budget filled meanwhile. */
  async function take(candidate: Candidate, document: FetchedDocument): Promise<void> {
    const finalDomain = document.domain || candidate.domain;
    if (isKnownUrl(deduper, document, candidate.url, finalDomain)) {
      duplicates++;
      return;
    }
    const copied = await deduper.seenText(document.content, candidate.index);
    if (copied) {
      duplicates++;
      keepEarlierListed(copied, candidate.index, finalDomain, document);
      return;
    }
    if (usage.sources >= budget.max_sources) return reject(candidate.url, 'budget_sources');
    usage.sources++;
    usage.pages_per_domain[finalDomain] = domainCount(finalDomain) + 1;
    kept.push({ index: candidate.index, domain: finalDomain, source: toSourceDraft(document) });
  }

  async function attempt(candidate: Candidate): Promise<void> {
    const { url, domain } = candidate;
    const refused = await holdSlot(domain);
    if (refused) return reject(url, refused);
    try {
      const document = await fetchDocument(url, {
        signal: fetchOptions.signal,
        language: fetchOptions.language,
        onBytes,
        cacheOnly: usage.bytes >= budget.max_total_download_bytes,
      });
      await take(candidate, document);
    } catch (error) {
      reject(url, isCrawlError(error) ? error.reason : 'network');
      if (!isCrawlError(error)) log.warn('unexpected crawl failure', { error: (error as Error).message });
    } finally {
      inFlight.end(domain);
    }
  }

  function result(): FetchSourcesResult {
    if (duplicates > 0) metrics.duplicateSources(duplicates);
    kept.sort((a, b) => a.index - b.index);
    return { sources: kept.map((k) => k.source), rejected, duplicates, usage };
  }

  return { candidates, attempt, result };
}

/** True when the page answered from a URL the run already has (after a redirect, or by its canonical URL). */
function isKnownUrl(deduper: SourceDeduper, document: FetchedDocument, url: string, finalDomain: string): boolean {
  const sameSiteCanonical =
    document.canonicalUrl && registrableDomain(document.canonicalUrl) === finalDomain
      ? safeNormalize(document.canonicalUrl)
      : null;
  return (
    (document.url !== url && deduper.seenUrl(document.url)) ||
    (sameSiteCanonical !== null &&
      sameSiteCanonical !== url &&
      sameSiteCanonical !== document.url &&
      deduper.seenUrl(sameSiteCanonical))
  );
}

/** Fetches in flight, in all and per domain, and a signal that fires whenever one ends. */
function inFlightCounter() {
  let total = 0;
  const byDomain = new Map<string, number>();
  let waiters: Array<() => void> = [];
  return {
    total: () => total,
    of: (domain: string) => byDomain.get(domain) ?? 0,
    start(domain: string): void {
      total++;
      byDomain.set(domain, (byDomain.get(domain) ?? 0) + 1);
    },
    end(domain: string): void {
      total--;
      const left = (byDomain.get(domain) ?? 1) - 1;
      if (left > 0) byDomain.set(domain, left);
      else byDomain.delete(domain);
      const current = waiters;
      waiters = [];
      for (const resolve of current) resolve();
    },
    finished: () => new Promise<void>((resolve) => waiters.push(resolve)),
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
