import { extractDocument } from './extract-document';
import type { ExtractedDocument, ExtractionTask } from './document';

/** The pool thread's entry: one extraction per call (piscina calls the default export). */
export default function runExtraction(task: ExtractionTask): Promise<ExtractedDocument> {
  return extractDocument(task);
}
