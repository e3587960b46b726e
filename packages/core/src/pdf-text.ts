import { MAX_PDF_PAGES } from './pdf-limits';

/** The part of a PDF.js document proxy the text reader needs (unpdf's getDocumentProxy gives one). */
export interface PdfPages {
  numPages: number;
  getPage(number: number): Promise<{ getTextContent(): Promise<{ items: ReadonlyArray<object> }> }>;
}

/**
 * The text layer of a PDF's first MAX_PDF_PAGES pages as PDF.js lays it out: each page's text items, a
 * newline where a line ends, blanks within a line collapsed, none at line ends, one empty line at most.
 * One rule for the crawler and the local corpus, so a document reads the same wherever it comes from.
 */
export async function pdfPagesText(pdf: PdfPages): Promise<string> {
  const pages: string[] = [];
  for (let number = 1; number <= Math.min(pdf.numPages, MAX_PDF_PAGES); number++) {
    const { items } = await (await pdf.getPage(number)).getTextContent();
    pages.push(
      items
        .map((item) => ('str' in item ? String(item.str) : '') + ('hasEOL' in item && item.hasEOL ? '\n' : ''))
        .join(''),
    );
  }
  return pages
    .join('\n')
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n');
}
