import type { DocumentFinding, DocumentSource } from '../api/report-types';
import { sourceTitle } from './source-target';

/**
 * A finding cited from one of its sources, as plain text to paste into notes or a paper: the finding, the
 * source's title, URL and the day it was read, and each passage of that source the finding rests on.
 */
export function citationText(finding: DocumentFinding, source: DocumentSource, citation: number): string {
  const read = source.retrieved_at ? ` (retrieved ${source.retrieved_at.slice(0, 10)})` : '';
  const passages = finding.quotes.filter((q) => q.citation === citation).map((q) => `Passage: “${q.text}”`);
  return [finding.text, `Source [${citation}]: ${sourceTitle(source)}, ${source.url}${read}`, ...passages].join('\n');
}

/**
 * The old way to copy, for a page served over plain HTTP from another machine (no secure context, so no
 * navigator.clipboard): a selected off-screen text area and execCommand, with the focus given back after.
 */
function copyBySelection(text: string): boolean {
  const focused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'visually-hidden';
  document.body.append(area);
  area.focus({ preventScroll: true });
  area.select();
  let copied = false;
  try {
    copied = document.execCommand('copy');
  } catch {
    copied = false;
  }
  area.remove();
  focused?.focus();
  return copied;
}

/** Puts `text` on the clipboard; whether it got there. */
export async function copyText(text: string): Promise<boolean> {
  if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(text);
      return true;
    } catch {
      // Refused (no permission, the document not focused): the old way may still work.
    }
  }
  return copyBySelection(text);
}
