import type { DocumentFinding, DocumentQuote, DocumentSource } from '../api/report-types';
import { Citation } from './Citation';
import { CopyCitation, type AnnounceCopy } from './CopyCitation';
import { EvidenceBars } from './EvidenceBars';
import type { OpenSource } from './source-target';

export type SourceOfNumber = (number: number) => DocumentSource | undefined;

const words = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * A quote that backs a finding: its text when it says more or other than the finding (a finding worded by its
 * claim, the quote as the source has it), else only a button to the passage, for the finding already says it.
 */
function Quote({
  quote,
  findingText,
  sourceOf,
  onOpen,
  showScores,
}: {
  quote: DocumentQuote;
  findingText: string;
  sourceOf: SourceOfNumber;
  onOpen: OpenSource;
  showScores: boolean;
}) {
  const source = sourceOf(quote.citation);
  if (words(quote.text) === words(findingText)) {
    return (
      <li className="quote">
        {source && (
          <button type="button" className="quote-open" onClick={(e) => onOpen({ source, quote }, e.currentTarget)}>
            The passage in source {quote.citation}
          </button>
        )}
        <p className="quote-meta">
          [{quote.citation}] {quote.claim_type}, in the finding’s own words
        </p>
        {showScores && quote.evidence && <EvidenceBars evidence={quote.evidence} />}
      </li>
    );
  }
  return (
    <li className="quote">
      {source ? (
        <button type="button" className="quote-text" onClick={(e) => onOpen({ source, quote }, e.currentTarget)}>
          “{quote.text}”
        </button>
      ) : (
        <p className="quote-text">“{quote.text}”</p>
      )}
      <p className="quote-meta">
        [{quote.citation}] {quote.claim_type}
      </p>
      {showScores && quote.evidence && <EvidenceBars evidence={quote.evidence} />}
    </li>
  );
}

/** What a finding needs besides itself: its sources, the viewer, whether scores show, the copy announcer. */
interface FindingContext {
  sourceOf: SourceOfNumber;
  onOpen: OpenSource;
  showScores: boolean;
  announce: AnnounceCopy;
}

function Finding({ finding, context }: { finding: DocumentFinding; context: FindingContext }) {
  const { sourceOf, onOpen, showScores, announce } = context;
  return (
    <li id={`finding-${finding.number}`} tabIndex={-1} className="finding" value={finding.number}>
      <p className="finding-text">
        {finding.text}{' '}
        {finding.citations.map((n) => {
          const source = sourceOf(n);
          return (
            // A citation and its copy button wrap together, never apart.
            <span key={n} className="cite">
              <Citation
                number={n}
                source={source}
                // A citation marks the passage its source gives for this finding, when it gives one.
                quote={finding.quotes.find((q) => q.citation === n) ?? null}
                onOpen={onOpen}
              />
              {source && <CopyCitation finding={finding} source={source} citation={n} announce={announce} />}
            </span>
          );
        })}
      </p>
      <p className="confidence">Confidence {Math.round(finding.confidence * 100)} %</p>
      {finding.quotes.length > 0 && (
        <ul className="quotes" aria-label={`Quotes for finding ${finding.number}`}>
          {finding.quotes.map((q) => (
            <Quote
              key={q.claim_id}
              quote={q}
              findingText={finding.text}
              sourceOf={sourceOf}
              onOpen={onOpen}
              showScores={showScores}
            />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * The report's findings, numbered, each with its confidence, citations (a copy button beside each) and quotes;
 * the quotes' evidence scores only when `showScores`.
 */
export function Findings({ findings, ...context }: { findings: DocumentFinding[] } & FindingContext) {
  if (findings.length === 0) return <p className="hint">The report has no findings.</p>;
  return (
    <ol className="findings">
      {findings.map((f) => (
        <Finding key={f.number} finding={f} context={context} />
      ))}
    </ol>
  );
}
