import { useMemo, useState } from 'react';
import { hrefOf } from '../router';
import type { DocumentSource, ReportDocument, SummaryPart } from '../api/report-types';
import { useStoredFlag } from '../use-stored-flag';
import { Disagreements } from './Disagreements';
import { Findings } from './Findings';
import { SourceList } from './SourceList';
import type { OpenSource } from './source-target';

/** Moves the reader to a finding of the report (the page's hash holds its place, not an anchor). */
function goToFinding(n: number): void {
  const finding = document.getElementById(`finding-${n}`);
  finding?.scrollIntoView({ block: 'start' });
  finding?.focus({ preventScroll: true });
}

function Summary({ parts, runId }: { parts: SummaryPart[]; runId: string }) {
  if (parts.length === 0) return null;
  return (
    <p className="summary">
      {parts.map((part, i) =>
        typeof part === 'string' ? (
          part
        ) : (
          <a
            key={i}
            href={hrefOf({ name: 'run', id: runId })}
            onClick={(e) => {
              e.preventDefault();
              goToFinding(part.finding);
            }}
          >
            <span className="visually-hidden">Finding </span>[F{part.finding}]
          </a>
        ),
      )}
    </p>
  );
}

/** The scores' switch: off at first, so a finding reads as its text and its citations; kept for the next report. */
function ScoresToggle({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="scores-toggle">
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      Show scores
    </label>
  );
}

/**
 * The report as a document: summary, findings, disagreements, uncertainties, methodology and sources. The
 * evidence scores show only when the reader asks for them.
 */
export function ReportView({ doc, onOpen }: { doc: ReportDocument; onOpen: OpenSource }) {
  const [showScores, setShowScores] = useStoredFlag('research.showScores', false);
  // The report's one live region: what a copy button did, said once.
  const [announcement, setAnnouncement] = useState('');
  const { byNumber, byId } = useMemo(() => {
    const byNumber = new Map<number, DocumentSource>();
    const byId = new Map<string, DocumentSource>();
    for (const s of doc.sources) {
      if (s.number !== null) byNumber.set(s.number, s);
      byId.set(s.source_id, s);
    }
    return { byNumber, byId };
  }, [doc.sources]);
  const sourceOf = (n: number) => byNumber.get(n);

  return (
    <>
      <Summary parts={doc.summary} runId={doc.research_id} />
      {doc.generated_at && <p className="hint">Written {new Date(doc.generated_at).toLocaleString()}</p>}
      <div className="findings-head">
        <h2>Findings</h2>
        {doc.findings.length > 0 && <ScoresToggle checked={showScores} onChange={setShowScores} />}
      </div>
      <Findings
        findings={doc.findings}
        sourceOf={sourceOf}
        onOpen={onOpen}
        showScores={showScores}
        announce={setAnnouncement}
      />
      <p role="status" className="visually-hidden">
        {announcement}
      </p>
      <h2>Disagreements</h2>
      <Disagreements
        disagreements={doc.disagreements}
        sourceOf={sourceOf}
        sourceById={(id) => byId.get(id)}
        onOpen={onOpen}
      />
      {doc.uncertainties.length > 0 && (
        <>
          <h2>Uncertainties</h2>
          <ul>
            {doc.uncertainties.map((u, i) => (
              <li key={i}>{u}</li>
            ))}
          </ul>
        </>
      )}
      {doc.methodology && (
        <>
          <h2>Methodology</h2>
          <p className="methodology">{doc.methodology}</p>
        </>
      )}
      <h2>Sources</h2>
      <SourceList sources={doc.sources} onOpen={onOpen} showScores={showScores} />
    </>
  );
}
