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
