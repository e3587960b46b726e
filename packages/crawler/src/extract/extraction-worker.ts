import { parentPort, threadId } from 'node:worker_threads';
import { isCrawlError } from '../crawl-error';
import { extractDocument } from './extract-document';
import type { ExtractionOutcome, ExtractionTask, ThreadLoaded } from './document';

// Every module this thread needs is loaded now (jsdom loads all of its own on import).
parentPort?.postMessage({ extractionThreadLoaded: threadId } satisfies ThreadLoaded);

/** The pool thread's entry: one extraction per call (piscina calls the default export). */
export default async function runExtraction(task: ExtractionTask): Promise<ExtractionOutcome> {
  try {
    return { document: await extractDocument(task) };
  } catch (error) {
    if (isCrawlError(error)) return { refused: { reason: error.reason, message: error.message } };
    throw error;
  }
}
