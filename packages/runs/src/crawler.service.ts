import { AppError } from '@research/core';
import {
  isCrawlError,
  type CrawlError,
  type CrawlErrorReason,
  type FetchedDocument,
  type UrlValidation,
} from '@research/crawler';
import type { ResearchTools } from './research-tools';

/** What the crawler use cases answer with: a page as the pipeline reads it, and a URL's check. */
export type { FetchedDocument, UrlValidation };

/** URLs one batch request may name. */
export const MAX_BATCH_URLS = 10;
/** Bytes one batch request may download over all its URLs. */
export const MAX_BATCH_BYTES = 10 * 1024 * 1024;
/** Pages of one batch fetched at once. */
export const BATCH_CONCURRENCY = 4;

/** A crawl error as the crawler routes show it: a stable reason code and a safe message. */
export interface CrawlFailure {
  reason: CrawlErrorReason;
  message: string;
}

/**
 * The answer to a URL of a request field the crawler refused: 422 naming the field and the crawler's
 * reason code, or 413 with `tooLarge` when the field has its own size limit and that was the reason.
 */
export function crawlRefusal(error: CrawlError, field: string, tooLarge?: string): AppError {
  if (tooLarge !== undefined && error.reason === 'too_large')
    return new AppError('payload_too_large', `${field}: ${tooLarge}`);
  return new AppError('validation', `${field}: ${error.reason}: ${error.message}`);
}

function failureOf(error: unknown): CrawlFailure {
  if (isCrawlError(error)) return { reason: error.reason, message: error.message };
  return { reason: 'network', message: 'The page could not be fetched.' };
}

/** One URL fetched and extracted like a pipeline source (guard, robots, byte cap, page cache). */
export async function fetchOne(
  tools: ResearchTools,
  callerId: string,
  input: { url: string; language?: string },
  signal: AbortSignal,
): Promise<FetchedDocument> {
  try {
    return await tools.limitOutbound(callerId, () =>
      tools.crawler().fetchDocument(input.url, { signal, language: input.language }),
    );
  } catch (error) {
    if (!isCrawlError(error)) throw error;
    throw crawlRefusal(error, 'url');
  }
}

export type BatchItem =
  { url: string; ok: true; document: FetchedDocument } | { url: string; ok: false; error: CrawlFailure };

/**
 * Several URLs, each fetched like fetchOne, a few at a time, within one byte budget for the request.
 * Partial success: every URL gets its document or its error, in the order given. Each fetch in flight
 * holds one of the caller's outbound slots: the batch runs as many at once as the caller has free (up
 * to BATCH_CONCURRENCY), and is refused with 429 only when none is free.
 */
export async function fetchBatch(
  tools: ResearchTools,
  callerId: string,
  input: { urls: string[]; language?: string },
  signal: AbortSignal,
): Promise<BatchItem[]> {
  let bytes = 0;
  const onBytes = (n: number) => {
    if (bytes + n > MAX_BATCH_BYTES) return false;
    bytes += n;
    return true;
  };
  const results: BatchItem[] = new Array(input.urls.length);
  let next = 0;
  const lease = tools.reserveOutbound(callerId, Math.min(BATCH_CONCURRENCY, input.urls.length));
  try {
    await Promise.all(
      Array.from({ length: lease.slots }, async () => {
        while (next < input.urls.length) {
          const index = next++;
          const url = input.urls[index]!;
          try {
            const document = await lease.run(() =>
              tools
                .crawler()
                .fetchDocument(url, { signal, language: input.language, onBytes, cacheOnly: bytes >= MAX_BATCH_BYTES }),
            );
            results[index] = { url, ok: true, document };
          } catch (error) {
            if (!isCrawlError(error)) throw error;
            results[index] = { url, ok: false, error: failureOf(error) };
          }
        }
      }),
    );
  } finally {
    lease.release();
  }
  return results;
}

/** Whether the crawler would fetch a URL: scheme, credentials, address range (after DNS) and robots.txt. */
export function validateOne(tools: ResearchTools, callerId: string, url: string): Promise<UrlValidation> {
  return tools.limitOutbound(callerId, () => tools.crawler().validateUrl(url, { robots: true }));
}
