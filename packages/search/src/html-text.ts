import { Parser } from 'htmlparser2';

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'canvas']);
const BLOCK = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'td',
  'th',
  'tr',
  'ul',
]);

export interface HtmlText {
  title: string | null;
  text: string;
}

/** Visible text of an HTML document (one block per line, entities decoded) and its title. */
export function htmlToText(html: string): HtmlText {
  const lines: string[] = [];
  let line = '';
  let skipDepth = 0;
  let inTitle = false;
  let title = '';
  let firstHeading: string | null = null;
  let headingText: string | null = null;
  const flush = () => {
    const text = line.replace(/\s+/g, ' ').trim();
    if (text) lines.push(text);
    line = '';
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (SKIPPED.has(name)) skipDepth++;
        else if (name === 'title') inTitle = true;
        else if (BLOCK.has(name)) flush();
        if (name === 'h1' && firstHeading === null) headingText = '';
      },
      ontext(text) {
        if (skipDepth > 0) return;
        if (inTitle) {
          title += text;
          return;
        }
        line += text;
        if (headingText !== null) headingText += text;
      },
      onclosetag(name) {
        if (SKIPPED.has(name)) skipDepth = Math.max(0, skipDepth - 1);
        else if (name === 'title') inTitle = false;
        else if (BLOCK.has(name)) flush();
        if (name === 'h1' && headingText !== null) {
          firstHeading = headingText.replace(/\s+/g, ' ').trim() || null;
          headingText = null;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flush();
  const cleanTitle = title.replace(/\s+/g, ' ').trim();
  return { title: cleanTitle || firstHeading, text: lines.join('\n') };
}

/** A provider's snippet as plain text: highlighting tags removed, entities decoded, whitespace collapsed. */
export function plainSnippet(value: unknown): string {
  if (typeof value !== 'string' || value === '') return '';
  if (!/[<&]/.test(value)) return value.replace(/\s+/g, ' ').trim();
  let text = '';
  const parser = new Parser(
    {
      ontext(chunk) {
        text += chunk;
      },
    },
    { decodeEntities: true },
  );
  parser.write(value);
  parser.end();
  return text.replace(/\s+/g, ' ').trim();
}

/** An ISO 8601 timestamp from a provider's date text, or null when it is missing or not a date. */
export function isoDate(value: unknown): string | null {
  if (typeof value !== 'string' || value.trim() === '') return null;
  const text = value.trim();
  // Only absolute dates: relative ones ("3 days ago") would be parsed as nonsense or not at all.
  if (!/\d{4}/.test(text)) return null;
  // Zone-less ISO times (Brave's page_age, SearxNG's publishedDate) are UTC, not this machine's zone.
  const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(text) ? `${text}Z` : text;
  const time = Date.parse(zoned);
  if (!Number.isFinite(time)) return null;
  return new Date(time).toISOString();
}
