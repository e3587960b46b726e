import { useEffect, useState } from 'react';
import type { DocumentFinding, DocumentSource } from '../api/report-types';
import { citationText, copyText } from './clipboard';

/** How long the button shows that it copied. */
const SHOWN_MS = 2000;

/** Told what became of a copy, to say it in the report's live region. */
export type AnnounceCopy = (message: string) => void;

/** A small button that copies a finding cited from one source as plain text (see citationText). */
export function CopyCitation({
  finding,
  source,
  citation,
  announce,
}: {
  finding: DocumentFinding;
  source: DocumentSource;
  citation: number;
  announce: AnnounceCopy;
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    announce('');
    const ok = await copyText(citationText(finding, source, citation));
    setCopied(ok);
    announce(
      ok
        ? `Copied: finding ${finding.number}, source ${citation}.`
        : 'The citation could not be copied: this browser refused the clipboard.',
    );
  }

  return (
    <button
      type="button"
      className="copy-citation"
      aria-label={`Copy citation: finding ${finding.number}, source ${citation}`}
      title="Copy the finding with this source and its passage"
      onClick={() => void copy()}
    >
      {copied ? 'Copied' : 'Copy'}
    </button>
  );
}
