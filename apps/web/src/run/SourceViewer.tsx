import { useEffect, useMemo, useRef, useState } from 'react';
import type { SourceContent } from '../api/types';
import { highlightSpan } from './highlight';
import { hrefOf } from '../router';
import {
  collectionOfSource,
  isCollectionSource,
  isLocalSource,
  localFilePath,
  sourceTitle,
  type SourceTarget,
} from './source-target';

type Check = 'checking' | 'verified' | 'mismatch' | 'unlisted';

const CHECK_TEXT: Record<Check, string> = {
  checking: 'Checking the text against its SHA-256…',
  verified: 'Text verified against its SHA-256',
  mismatch: 'This text does not match the SHA-256 the report lists for the source.',
  unlisted: 'The report lists no SHA-256 for this source.',
};

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether the text is the one the report's source list names by hash: hashed here where the browser can
 * (a secure context), else the hash the API sent with the text is compared.
 */
function useTextCheck(content: SourceContent | null, listed: string | null): Check | null {
  const [computed, setComputed] = useState<{ text: string; hash: string } | null>(null);
  const canHash = typeof crypto !== 'undefined' && crypto.subtle !== undefined && typeof TextEncoder === 'function';
  useEffect(() => {
    if (!content || !canHash) return;
    let live = true;
    sha256Hex(content.text).then(
      (hash) => live && setComputed({ text: content.text, hash }),
      () => live && setComputed({ text: content.text, hash: content.content_sha256 }),
    );
    return () => {
      live = false;
    };
  }, [content, canHash]);
  if (!content) return null;
  if (!listed) return 'unlisted';
  if (!canHash) return content.content_sha256 === listed ? 'verified' : 'mismatch';
  if (computed?.text !== content.text) return 'checking';
  return computed.hash === listed && content.content_sha256 === listed ? 'verified' : 'mismatch';
}

/** The source's text with the quoted span marked. */
function SourceText({ text, target }: { text: string; target: SourceTarget }) {
  const { quote } = target;
  const parts = useMemo(
    () =>
      quote
        ? highlightSpan(text, quote.span_start, quote.span_end, quote.text)
        : { before: text, marked: null, after: '' },
    [text, quote],
  );
  return (
    <>
      {quote && parts.marked === null && <p className="hint">The quoted passage was not found in this text.</p>}
      {/* Three text nodes at most, however long the text: no element per character or line. */}
      <div className="source-text" tabIndex={0} role="region" aria-label="Source text">
        {parts.before}
        {parts.marked !== null && <mark>{parts.marked}</mark>}
        {parts.after}
      </div>
    </>
  );
}

export interface SourceViewerProps {
  /** The source to show, null while the viewer is closed. */
  target: SourceTarget | null;
  content: SourceContent | null;
  /** The API's detail when the text could not be read. */
  error: string | null;
  onClose: () => void;
}

/** A modal dialog with a source's text, the quoted span marked, and whether the text matches its hash. */
export function SourceViewer({ target, content, error, onClose }: SourceViewerProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const open = target !== null;
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    if (!open && d.open) d.close();
  }, [open]);
  // After the dialog is open (a child's effect would run before it, while the dialog is still hidden).
  useEffect(() => {
    dialog.current?.querySelector('mark')?.scrollIntoView({ block: 'center' });
  }, [open, target, content]);
  const check = useTextCheck(content, target?.source.content_sha256 ?? null);
  return (
    <dialog ref={dialog} className="source-viewer" aria-labelledby="source-viewer-title" onClose={onClose}>
      {target && (
        <>
          <div className="source-viewer-head">
            <h2 id="source-viewer-title">{sourceTitle(target.source)}</h2>
            <button type="button" className="secondary" onClick={() => dialog.current?.close()}>
              Close
            </button>
          </div>
          <p className="source-url">
            {isLocalSource(target.source) ? (
              // No browser opens a local file's URL: the text below is all there is to show of it.
              <>
                Local file <code>{localFilePath(target.source)}</code>
              </>
            ) : isCollectionSource(target.source) ? (
              <>
                Collection document{' '}
                <a href={hrefOf({ name: 'collection', id: collectionOfSource(target.source) })}>
                  <code>{target.source.url}</code>
                </a>
              </>
            ) : (
              <a href={target.source.url} target="_blank" rel="noreferrer noopener">
                {target.source.url}
              </a>
            )}
          </p>
          {error ? (
            <p role="alert" className="error">
              {error}
            </p>
          ) : content === null ? (
            <p role="status">Loading the source text…</p>
          ) : (
            <>
              <p className="sha">
                SHA-256 <code>{content.content_sha256}</code>
              </p>
              {check && <p className={check === 'mismatch' ? 'sha-check error' : 'sha-check'}>{CHECK_TEXT[check]}</p>}
              <SourceText text={content.text} target={target} />
            </>
          )}
        </>
      )}
    </dialog>
  );
}
