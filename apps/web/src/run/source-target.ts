import type { DocumentQuote, DocumentSource } from '../api/report-types';

/** What the source viewer shows: a source, and the quote to mark in its text (none for a bare citation). */
export interface SourceTarget {
  source: DocumentSource;
  quote: DocumentQuote | null;
}

/** Opens the source viewer; `opener` gets the focus back when it closes. */
export type OpenSource = (target: SourceTarget, opener: HTMLElement) => void;

/** A source's name as the report shows it: its title, else its domain. */
export function sourceTitle(source: DocumentSource): string {
  return source.title?.trim() || source.domain || source.url;
}

/** "Primary" or "Secondary" for a source's evidence type, null when it has none. */
export function evidenceKind(type: string | null): string | null {
  if (type === 'primary_report') return 'Primary';
  if (type === 'secondary_report') return 'Secondary';
  return null;
}

/** The scheme of the local file provider's sources (`local:<path in the corpus folder>`): no browser opens it. */
const LOCAL_PREFIX = 'local:';

/** Whether a source is a file of the local corpus, whose text only the source viewer can show. */
export function isLocalSource(source: Pick<DocumentSource, 'url'>): boolean {
  return source.url.startsWith(LOCAL_PREFIX);
}

const COLLECTION_PREFIX = 'collection://';

/** Whether a source is a document of a collection (`collection://<collection_id>/<document_id>`). */
export function isCollectionSource(source: Pick<DocumentSource, 'url'>): boolean {
  return source.url.startsWith(COLLECTION_PREFIX);
}

/** The collection a collection source's document belongs to. */
export function collectionOfSource(source: Pick<DocumentSource, 'url'>): string {
  return source.url.slice(COLLECTION_PREFIX.length).split('/', 1)[0] ?? '';
}

/** A local file's path in the corpus folder, as its URL names it (each segment percent-decoded where it can be). */
export function localFilePath(source: Pick<DocumentSource, 'url'>): string {
  return source.url
    .slice(LOCAL_PREFIX.length)
    .split('/')
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    })
    .join('/');
}

/**
 * Where a source comes from, in a word, to stand beside its citation: the host of its URL without "www.", or
 * for a local file its file name ("local file" when the URL names none).
 */
export function sourcePlace(source: Pick<DocumentSource, 'url' | 'domain'>): string {
  if (isLocalSource(source)) return localFilePath(source).split('/').pop() || 'local file';
  if (isCollectionSource(source)) return 'collection';
  try {
    return new URL(source.url).hostname.replace(/^www\./, '') || source.domain;
  } catch {
    return source.domain || source.url;
  }
}
