import type { DocumentDisagreement, DocumentSource } from '../api/report-types';
import { Citation } from './Citation';
import type { SourceOfNumber } from './Findings';
import type { OpenSource } from './source-target';

function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The report's disagreements, each with its positions side by side (stacked on a narrow screen). */
export function Disagreements({
  disagreements,
  sourceOf,
  sourceById,
  onOpen,
}: {
  disagreements: DocumentDisagreement[];
  sourceOf: SourceOfNumber;
  sourceById: (id: string) => DocumentSource | undefined;
  onOpen: OpenSource;
}) {
  if (disagreements.length === 0) return <p className="hint">The sources found no disagreement.</p>;
  return (
    <ul className="disagreements">
      {disagreements.map((d, i) => (
        <li key={i} className="disagreement">
          <h3>{d.claim}</h3>
          {d.detail && <p>{d.detail}</p>}
          <ul className="positions">
            {d.positions.map((p, j) => {
              const uncited = p.citation === null && p.source_id !== null ? sourceById(p.source_id) : undefined;
              return (
                <li key={j} className="position">
                  {p.stance && <p className="stance">{capitalized(p.stance)}</p>}
                  <p>{p.view}</p>
                  <p className="position-source">
                    {p.source}{' '}
                    {p.citation !== null && (
                      <Citation number={p.citation} source={sourceOf(p.citation)} onOpen={onOpen} />
                    )}
                    {uncited && (
                      <button
                        type="button"
                        className="citation"
                        onClick={(e) => onOpen({ source: uncited, quote: null }, e.currentTarget)}
                      >
                        Read the source
                      </button>
                    )}
                  </p>
                </li>
              );
            })}
          </ul>
        </li>
      ))}
    </ul>
  );
}
