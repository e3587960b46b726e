import { CrawlError } from '../crawl-error';
import { extractHtml } from './html';
import { extractPdf } from './pdf';
import { extractMarkdown, extractText } from './text';
import type { ExtractedDocument, ExtractionTask } from './document';

/** Turns a fetched body into an ExtractedDocument; runs in a pool thread (or on the main thread in the benchmark). */
export async function extractDocument(task: ExtractionTask): Promise<ExtractedDocument> {
  switch (task.kind) {
    case 'html':
      return extractHtml(task.body, task.contentType, task.url);
    case 'pdf':
      return extractPdf(task.body);
    case 'text':
      return task.format === 'markdown' ? extractMarkdown(task.body) : extractText(task.body, task.contentType);
    case 'image':
    case 'audio':
      // Media is fetched for the vision and audio routes only; it is never a document.
      throw new CrawlError('unsupported_type', 'Images and audio are not read as documents.');
  }
}
