/** "1 document", "3 documents". */
export function documentsCount(n: number): string {
  return `${n} ${n === 1 ? 'document' : 'documents'}`;
}

/** A collection the Ask form offers (GET /v1/collections). */
export interface CollectionChoice {
  collection_id: string;
  name: string;
  document_count: number;
}

/**
 * The collections a run searches, ticked under the Ask form's "Advanced", and whether it searches them instead of
 * the web (sent as `include_domains: []`).
 */
export function CollectionsChoice({
  id,
  collections,
  chosen,
  only,
  problem,
  onChange,
}: {
  id: string;
  collections: readonly CollectionChoice[];
  chosen: readonly string[];
  only: boolean;
  /** The API's word on `collection_ids`, when it refused them. */
  problem: string | null;
  onChange: (chosen: string[], only: boolean) => void;
}) {
  return (
    <fieldset id={id} tabIndex={-1} aria-invalid={problem !== null || undefined}>
      <legend>Collections (optional)</legend>
      {problem && <p className="error">{problem}</p>}
      <p className="hint">Their documents are searched beside the web and cited like web pages.</p>
      {collections.map((c) => (
        <label key={c.collection_id} className="collection-check">
          <input
            type="checkbox"
            checked={chosen.includes(c.collection_id)}
            onChange={(e) => {
              const rest = chosen.filter((x) => x !== c.collection_id);
              const next = e.target.checked ? [...rest, c.collection_id] : rest;
              onChange(next, only && next.length > 0);
            }}
          />
          <span>
            {c.name} <span className="hint">({documentsCount(c.document_count)})</span>
          </span>
        </label>
      ))}
      <label className="collection-check">
        <input
          type="checkbox"
          checked={only}
          disabled={chosen.length === 0}
          onChange={(e) => onChange([...chosen], e.target.checked)}
        />
        <span>Only these collections, not the web</span>
      </label>
    </fieldset>
  );
}
