import { PDFParse } from 'pdf-parse';
import { EMPTY_HINTS, type ExtractedDocument } from './document';
import { tidyText, toIsoDate } from './html';

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

/** Extracts the text layer and document information of a PDF (pdf.js through pdf-parse). */
export async function extractPdf(body: Uint8Array): Promise<ExtractedDocument> {
  // pdf.js may detach the buffer it is given; hand it a copy. No font eval: the input is untrusted.
  const parser = new PDFParse({ data: new Uint8Array(body), isEvalSupported: false });
  try {
    const text = await parser.getText({ pageJoiner: '' });
    const info = (await parser.getInfo()).info as Record<string, unknown> | undefined;
    return {
      kind: 'pdf',
      title: infoText(info, 'Title'),
      byline: infoText(info, 'Author'),
      language: infoText(info, 'Language'),
      canonicalUrl: null,
      publishedAt: pdfDate(info?.CreationDate),
      siteName: null,
      excerpt: null,
      content: tidyText(text.text),
      encoding: null,
      hints: EMPTY_HINTS,
    };
  } finally {
    await parser.destroy();
  }
}
