import { isCrawlError } from '../crawl-error';
import { extractDocument } from './extract-document';
import type { ExtractionOutcome, ExtractionTask } from './document';

/** The pool thread's entry: one extraction per call (piscina calls the default export). */
export default async function runExtraction(task: ExtractionTask): Promise<ExtractionOutcome> {
  try {
    return { document: await extractDocument(task) };
  } catch (error) {
    if (isCrawlError(error)) return { refused: { reason: error.reason, message: error.message } };
    throw error;
  }
}
