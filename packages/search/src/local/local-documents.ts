import { promises as fs } from 'node:fs';
import path from 'node:path';
import { decodeHtml, decodeText, htmlFileType, markdownToText } from '@research/core';
import { htmlToText } from '../html-text';
import { PdfTextExtractor } from './pdf-text';

/** The kinds of file the local corpus holds, by extension. */
export const LOCAL_EXTENSIONS: Readonly<Record<string, LocalContentType>> = Object.freeze({
  '.md': 'text/markdown',
  '.markdown': 'text/markdown',
  '.txt': 'text/plain',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.pdf': 'application/pdf',
});

export type LocalContentType = 'text/markdown' | 'text/plain' | 'text/html' | 'application/pdf';

/** Files larger than this are skipped (and reported) rather than read into memory. */
export const MAX_LOCAL_FILE_BYTES = 50 * 1024 * 1024;
/** Extracted text kept per document; the rest of a huge file is not searched. */
export const MAX_LOCAL_TEXT_CHARS = 2_000_000;

export interface LocalDocumentText {
  title: string;
  text: string;
  contentType: LocalContentType;
  /**
   * An HTML file's bytes as read, for a reader that takes the article out of the page (the fetch step does,
   * with the crawler's extraction); `text` is all of the page's text. Null for other types.
   */
  html: Buffer | null;
}

export function localContentType(file: string): LocalContentType | undefined {
  return LOCAL_EXTENSIONS[path.extname(file).toLowerCase()];
}

function titleFromFileName(file: string): string {
  return path.basename(file, path.extname(file)).replace(/[-_]+/g, ' ').trim() || path.basename(file);
}

/** The searchable text and title of one corpus file. */
export async function readDocumentText(file: string, pdf: PdfTextExtractor): Promise<LocalDocumentText> {
  const contentType = localContentType(file);
  if (!contentType) throw new Error(`Unsupported file type: ${path.extname(file) || '(none)'}`);
  const stat = await fs.stat(file);
  if (stat.size > MAX_LOCAL_FILE_BYTES) throw new Error(`File is larger than ${MAX_LOCAL_FILE_BYTES} bytes`);
  const bytes = await fs.readFile(file);
  let title: string | null;
  let text: string;
  switch (contentType) {
    case 'application/pdf': {
      const extracted = await pdf.extract(bytes);
      text = extracted.text.replace(/[ \t]+/g, ' ').trim();
      title = extracted.title ?? firstLine(text);
      break;
    }
    case 'text/html':
      ({ title, text } = htmlToText(decodeHtml(bytes, htmlFileType(bytes)).text));
      break;
    case 'text/markdown':
      ({ title, text } = markdownToText(decodeText(bytes).text));
      break;
    case 'text/plain':
      text = decodeText(bytes).text.replace(/\r\n?/g, '\n').trim();
      title = firstLine(text);
      break;
  }
  return {
    title: title || titleFromFileName(file),
    text: text.replace(/\u0000/g, '').slice(0, MAX_LOCAL_TEXT_CHARS),
    contentType,
    html: contentType === 'text/html' ? bytes : null,
  };
}

function firstLine(text: string): string | null {
  const line = text
    .split('\n')
    .find((l) => l.trim() !== '')
    ?.trim();
  return line && line.length <= 120 ? line : null;
}
