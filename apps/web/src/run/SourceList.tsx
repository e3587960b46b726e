import type { DocumentSource } from '../api/report-types';
import { ScoreBar } from './ScoreBar';
import {
  evidenceKind,
  isCollectionSource,
  isLocalSource,
  sourcePlace,
  sourceTitle,
  type OpenSource,
} from './source-target';

/**
 * A source's title as a way to it: a web page opens in a new tab; a local file, which no browser can open,
 * opens in the source viewer with the text the run stored.
 */
function SourceTitle({ source, onOpen }: { source: DocumentSource; onOpen: OpenSource }) {
  const title = sourceTitle(source);
  // No browser opens a local file's or a collection document's URL: the source viewer shows its text.
  if (isLocalSource(source) || isCollectionSource(source)) {
    return (
      <button type="button" className="link-button" onClick={(e) => onOpen({ source, quote: null }, e.currentTarget)}>
        {title}
      </button>
    );
  }
  return (
    <a href={source.url} target="_blank" rel="noreferrer noopener">
      {title}
    </a>
  );
}

/** Every source of the run: the cited ones first with their numbers, then the others; independence on demand. */
export function SourceList({
  sources,
  onOpen,
  showScores,
}: {
  sources: DocumentSource[];
  onOpen: OpenSource;
  showScores: boolean;
}) {
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
              <SourceTitle source={s} onOpen={onOpen} />
            </p>
            <p className="source-meta">
              {[sourcePlace(s), s.source_type, kind, `${s.claim_count} ${s.claim_count === 1 ? 'claim' : 'claims'}`]
                .filter(Boolean)
                .join(' · ')}
            </p>
            {showScores && s.independence !== null && <ScoreBar name="Independence" value={s.independence} />}
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
