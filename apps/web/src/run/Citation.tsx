import type { DocumentQuote, DocumentSource } from '../api/report-types';
import { sourceTitle, type OpenSource } from './source-target';

/** A numbered citation "[n]" that opens its source's text, with `quote` marked when there is one. */
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
  return (
    <button
      type="button"
      className="citation"
      aria-label={`Source ${number}: ${sourceTitle(source)}`}
      onClick={(e) => onOpen({ source, quote }, e.currentTarget)}
    >
      [{number}]
    </button>
  );
}
