import { decodeText, markdownToText } from '@research/core';
import { EMPTY_HINTS, type ExtractedDocument } from './document';
import { tidyText } from './article-text';

/** A text/plain page: its decoded text, the first line as its title when it is short. */
export function extractText(body: Uint8Array, contentType: string): ExtractedDocument {
  const { text, encoding } = decodeText(body, contentType);
  const content = tidyText(text);
  const firstLine = content.split('\n', 1)[0]?.trim() ?? '';
  return {
    kind: 'text',
    title: firstLine.length > 0 && firstLine.length <= 150 ? firstLine : null,
    byline: null,
    language: null,
    canonicalUrl: null,
    publishedAt: null,
    siteName: null,
    excerpt: null,
    content,
    encoding,
    hints: EMPTY_HINTS,
  };
}

/** A Markdown file: its text without markup (the local corpus's reading), its title from front matter or heading. */
export function extractMarkdown(body: Uint8Array): ExtractedDocument {
  const { text, encoding } = decodeText(body, 'text/markdown');
  const markdown = markdownToText(text);
  const plain = extractText(new TextEncoder().encode(markdown.text), 'text/plain; charset=utf-8');
  return { ...plain, title: markdown.title ?? plain.title, encoding };
}
