import { useLayoutEffect, useRef } from 'react';
import type { ProgressCounters, ProgressState } from './progress';

const COUNTERS: { key: keyof ProgressCounters; label: string }[] = [
  { key: 'queries', label: 'Queries' },
  { key: 'fetched', label: 'Sources read' },
  { key: 'rejected', label: 'Rejected' },
  { key: 'claims', label: 'Claims' },
  { key: 'contradictions', label: 'Contradictions' },
];

/** Within this many pixels of the end, the reader is at the bottom and follows new events. */
const BOTTOM_SLACK_PX = 24;

function timeOf(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleTimeString();
}

/**
 * The counters and the event log. The log has a fixed height and its own scroll, so arriving events never
 * move the page; it follows the newest event only while the reader is at its bottom.
 */
export function ProgressLog({ progress }: { progress: ProgressState }) {
  const box = useRef<HTMLDivElement>(null);
  const atBottom = useRef(true);
  const count = progress.entries.length;

  useLayoutEffect(() => {
    const el = box.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [count]);

  function onScroll() {
    const el = box.current;
    if (el) atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight <= BOTTOM_SLACK_PX;
  }

  return (
    <>
      <dl className="counters">
        {COUNTERS.map((c) => (
          <div key={c.key}>
            <dt>{c.label}</dt>
            <dd>{progress.counters[c.key]}</dd>
          </div>
        ))}
      </dl>
      <div ref={box} className="progress-log" role="log" aria-label="Progress events" tabIndex={0} onScroll={onScroll}>
        {count === 0 ? (
          <p className="hint">Waiting for the first event…</p>
        ) : (
          <ol>
            {progress.entries.map((e) => (
              <li key={e.seq} className={`log-${e.tone}`}>
                <time dateTime={e.at}>{timeOf(e.at)}</time> {e.text}
              </li>
            ))}
          </ol>
        )}
      </div>
    </>
  );
}
