import type { ExtractedDocument } from './extract/document';

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
