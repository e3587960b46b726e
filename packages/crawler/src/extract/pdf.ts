import { getDocumentProxy, getMeta } from 'unpdf';
import { pdfOverLimits, pdfPagesText } from '@research/core';
import { CrawlError } from '../crawl-error';
import { EMPTY_HINTS, type ExtractedDocument } from './document';
import { tidyText } from './article-text';
import { toIsoDate } from './html';

/** PDF dates look like `D:20240131120000+01'00'`. */
function pdfDate(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const m = /^D?:?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz]|[+-]\d{2}'?\d{2}'?)?/.exec(value.trim());
  if (!m) return toIsoDate(value);
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', zone] = m;
  const offset = !zone || /z/i.test(zone) ? 'Z' : `${zone.slice(0, 3)}:${zone.replace(/'/g, '').slice(3, 5) || '00'}`;
  return toIsoDate(`${y}-${mo}-${d}T${h}:${mi}:${s}${offset}`);
}

function infoText(info: Record<string, unknown> | undefined, key: string): string | null {
  const value = info?.[key];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

/** Characters of a PDF's text kept at most (about what the 5 MB page cap allows an HTML page). */
const MAX_PDF_TEXT_CHARS = 5_000_000;

/** A text cut to at most `max` characters, at the end of a paragraph where there is one. */
function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const paragraph = text.lastIndexOf('\n\n', max);
  return text.slice(0, paragraph > 0 ? paragraph : max);
}

/**
 * Extracts the text layer of the first MAX_PDF_PAGES pages and the document information of a PDF
 * (PDF.js through unpdf). A PDF whose streams inflate past MAX_PDF_INFLATED_BYTES is refused
 * (`too_large`) before PDF.js reads it; the pool stops one that takes longer than MAX_PDF_MS.
 */
export async function extractPdf(body: Uint8Array): Promise<ExtractedDocument> {
  const refusal = pdfOverLimits(body);
  if (refusal) throw new CrawlError('too_large', refusal);
  // PDF.js may detach the buffer it is given; hand it a copy. No font eval: the input is untrusted.
  const pdf = await getDocumentProxy(new Uint8Array(body), { verbosity: 0, isEvalSupported: false });
  try {
    const text = await pdfPagesText(pdf);
    const info = (await getMeta(pdf)).info as Record<string, unknown> | undefined;
    return {
      kind: 'pdf',
      title: infoText(info, 'Title'),
      byline: infoText(info, 'Author'),
      language: infoText(info, 'Language'),
      canonicalUrl: null,
      publishedAt: pdfDate(info?.CreationDate),
      siteName: null,
      excerpt: null,
      content: cutText(tidyText(text), MAX_PDF_TEXT_CHARS),
      encoding: null,
      hints: EMPTY_HINTS,
    };
  } finally {
    await pdf.destroy();
  }
}
