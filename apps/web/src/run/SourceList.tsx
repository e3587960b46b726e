import type { DocumentSource } from '../api/report-types';
import { ScoreBar } from './ScoreBar';
import { evidenceKind, sourceTitle, type OpenSource } from './source-target';

/** Every source of the run: the cited ones first with their numbers, then the others. */
export function SourceList({ sources, onOpen }: { sources: DocumentSource[]; onOpen: OpenSource }) {
  if (sources.length === 0) return <p className="hint">The run kept no sources.</p>;
  return (
    <ul className="sources">
      {sources.map((s) => {
        const title = sourceTitle(s);
        const kind = evidenceKind(s.evidence_type);
        return (
          <li key={s.source_id} className="source">
            <p className="source-title">
              <span className="source-number">{s.number === null ? 'Not cited' : `[${s.number}]`}</span>{' '}
              <a href={s.url} target="_blank" rel="noreferrer noopener">
                {title}
              </a>
            </p>
            <p className="source-meta">
              {[s.domain, s.source_type, kind, `${s.claim_count} ${s.claim_count === 1 ? 'claim' : 'claims'}`]
                .filter(Boolean)
                .join(' · ')}
            </p>
            {s.independence !== null && <ScoreBar name="Independence" value={s.independence} />}
            <button
              type="button"
              className="secondary small"
              aria-label={`Read the text of ${title}`}
              onClick={(e) => onOpen({ source: s, quote: null }, e.currentTarget)}
            >
              Read the text
            </button>
          </li>
        );
      })}
    </ul>
  );
}
