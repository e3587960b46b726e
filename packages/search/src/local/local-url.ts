import { promises as fs } from 'node:fs';
import path from 'node:path';
import { localContentType, readDocumentText, type LocalContentType } from './local-documents';
import { PdfTextExtractor } from './pdf-text';

/** Scheme of the local corpus's URLs: `local:<relative path>`, each path segment percent-encoded. */
export const LOCAL_URL_PREFIX = 'local:';

export function isLocalUrl(url: string): boolean {
  return url.startsWith(LOCAL_URL_PREFIX);
}

/** The URL of a corpus file from its path relative to LOCAL_CORPUS_DIR (either separator). */
export function toLocalUrl(relativePath: string): string {
  return `${LOCAL_URL_PREFIX}${relativePath
    .split(/[\\/]+/)
    .filter(Boolean)
    .map(encodeURIComponent)
    .join('/')}`;
}

/** The relative path of a `local:` URL, or null when it is not one or could leave the corpus folder. */
export function localUrlPath(url: string): string | null {
  if (!isLocalUrl(url)) return null;
  const raw = url.slice(LOCAL_URL_PREFIX.length);
  if (raw === '' || raw.startsWith('/')) return null;
  const segments: string[] = [];
  for (const encoded of raw.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(encoded);
    } catch {
      return null;
    }
    if (segment === '' || segment === '.' || segment === '..' || /[\\/\u0000]/.test(segment)) return null;
    segments.push(segment);
  }
  return segments.join('/');
}

export interface LocalDocument {
  url: string;
  title: string;
  text: string;
  contentType: LocalContentType;
  /** An HTML file's bytes (see LocalDocumentText.html). */
  html: Buffer | null;
  bytes: number;
  modifiedAt: string;
}

/** Raised when a `local:` URL does not name a readable corpus file (fetch steps treat it as a rejected source). */
export class LocalDocumentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LocalDocumentError';
  }
}

let sharedPdf: PdfTextExtractor | null = null;

/**
 * Reads a corpus document by its `local:` URL, as the fetch step needs it: title, plain text (PDF and
 * HTML extracted), type, size and modification time. Refuses anything outside `corpusDir`, including
 * symbolic links that point out of it.
 */
export async function readLocalDocument(
  url: string,
  corpusDir: string,
  pdf: PdfTextExtractor = (sharedPdf ??= new PdfTextExtractor()),
): Promise<LocalDocument> {
  const relative = localUrlPath(url);
  if (relative === null) throw new LocalDocumentError('Not a valid local corpus URL');
  if (!localContentType(relative)) throw new LocalDocumentError('Not a supported corpus file type');
  const root = await fs.realpath(path.resolve(corpusDir)).catch(() => {
    throw new LocalDocumentError('The local corpus folder is not readable');
  });
  const file = path.resolve(root, ...relative.split('/'));
  const real = await fs.realpath(file).catch(() => {
    throw new LocalDocumentError(`No such corpus document: ${relative}`);
  });
  if (!real.startsWith(root + path.sep)) throw new LocalDocumentError('The document lies outside the local corpus');
  const stat = await fs.stat(real);
  if (!stat.isFile()) throw new LocalDocumentError(`No such corpus document: ${relative}`);
  const doc = await readDocumentText(real, pdf);
  return {
    url: toLocalUrl(relative),
    title: doc.title,
    text: doc.text,
    contentType: doc.contentType,
    html: doc.html,
    bytes: stat.size,
    modifiedAt: stat.mtime.toISOString(),
  };
}
