import type { DocumentQuote, DocumentSource } from '../api/report-types';
import { sourcePlace, sourceTitle, type OpenSource } from './source-target';

/**
 * A numbered citation "[n] host" that opens its source's text, with `quote` marked when there is one: the host
 * (or a local file's name) says at a glance where a finding comes from.
 */
export function Citation({
  number,
  source,
  quote = null,
  onOpen,
}: {
  number: number;
  source: DocumentSource | undefined;
  quote?: DocumentQuote | null;
  onOpen: OpenSource;
}) {
  if (!source) return <span className="citation">[{number}]</span>;
  const place = sourcePlace(source);
  // Named by its own text, the visible part first ("Source [1] who.int – Fact sheet"), so speech and sight agree.
  return (
    <button type="button" className="citation" onClick={(e) => onOpen({ source, quote }, e.currentTarget)}>
      <span className="visually-hidden">Source </span>[{number}] <span className="citation-place">{place}</span>
      <span className="visually-hidden"> – {sourceTitle(source)}</span>
    </button>
  );
}
