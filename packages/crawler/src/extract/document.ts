import type { CrawlErrorReason } from '../crawl-error';
import type { ContentKind } from '../fetch-page';

/** Hints a page gives about what kind of source it is (read by source-type.ts). */
export interface PageHints {
  /** `og:type`, lower case. */
  ogType: string | null;
  /** Every JSON-LD `@type` on the page. */
  jsonLdTypes: string[];
  /** `<meta name="generator">`. */
  generator: string | null;
  /** Highwire `citation_*` tags (journal and preprint pages carry them). */
  scholarly: boolean;
}

/** What extraction gives for one page: the main text and its metadata. */
export interface ExtractedDocument {
  kind: ContentKind;
  title: string | null;
  byline: string | null;
  /** BCP 47 tag as the page declares it, e.g. `en`, `de-DE`. */
  language: string | null;
  /** The page's own canonical URL (link rel=canonical or og:url), absolute. */
  canonicalUrl: string | null;
  /** ISO 8601 publication time when the page states one (meta tags, JSON-LD, `<time>`). */
  publishedAt: string | null;
  siteName: string | null;
  excerpt: string | null;
  /** The main text, paragraphs separated by blank lines. */
  content: string;
  /** The charset the body was decoded with (html and text). */
  encoding: string | null;
  hints: PageHints;
}

/** One extraction job, as sent to a pool thread. */
export interface ExtractionTask {
  body: Uint8Array;
  contentType: string;
  kind: ContentKind;
  url: string;
  /** A text file written in Markdown (a collection's upload): read as the local corpus reads one. */
  format?: 'markdown';
}

export const EMPTY_HINTS: PageHints = { ogType: null, jsonLdTypes: [], generator: null, scholarly: false };

/**
 * What a pool thread answers: the document, or the crawler's refusal of it (errors lose their reason
 * when they cross threads, so a refusal travels as a value).
 */
export type ExtractionOutcome =
  { document: ExtractedDocument } | { refused: { reason: CrawlErrorReason; message: string } };

/**
 * What a pool thread posts once its modules are loaded. Node 20 aborts the whole process when a thread
 * is terminated while it loads an ES module through require() (jsdom's selector engine is one), so the
 * pool never stops a thread before it has said this.
 */
export interface ThreadLoaded {
  extractionThreadLoaded: number;
}

export function isThreadLoaded(message: unknown): message is ThreadLoaded {
  return typeof message === 'object' && message !== null && 'extractionThreadLoaded' in message;
}
