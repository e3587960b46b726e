import { JSDOM, VirtualConsole } from 'jsdom';
import { Readability } from '@mozilla/readability';
import { decodeHtml } from './decode';
import type { ExtractedDocument, PageHints } from './document';

const BLOCK_TAGS = new Set([
  'ADDRESS',
  'ARTICLE',
  'ASIDE',
  'BLOCKQUOTE',
  'BR',
  'DD',
  'DIV',
  'DL',
  'DT',
  'FIGCAPTION',
  'FIGURE',
  'FOOTER',
  'H1',
  'H2',
  'H3',
  'H4',
  'H5',
  'H6',
  'HEADER',
  'HR',
  'LI',
  'MAIN',
  'OL',
  'P',
  'PRE',
  'SECTION',
  'TABLE',
  'TD',
  'TH',
  'TR',
  'UL',
]);

const PUBLISHED_META = [
  'meta[property="article:published_time"]',
  'meta[name="article:published_time"]',
  'meta[itemprop="datePublished"]',
  'meta[property="og:published_time"]',
  'meta[name="citation_publication_date"]',
  'meta[name="citation_date"]',
  'meta[name="dc.date.issued"]',
  'meta[name="DC.date.issued"]',
  'meta[name="dcterms.created"]',
  'meta[name="DC.date"]',
  'meta[name="dc.date"]',
  'meta[name="date"]',
  'meta[name="pubdate"]',
  'meta[name="publishdate"]',
  'meta[name="publish-date"]',
  'meta[name="sailthru.date"]',
  'meta[name="parsely-pub-date"]',
];

/** The text of a node with a blank line between blocks, so sentences of two paragraphs never run together. */
function blockText(root: Node): string {
  const parts: string[] = [];
  const walk = (node: Node) => {
    if (node.nodeType === 3) {
      parts.push(node.nodeValue ?? '');
      return;
    }
    if (node.nodeType !== 1) return;
    const block = BLOCK_TAGS.has((node as Element).tagName);
    if (block) parts.push('\n\n');
    for (let child = node.firstChild; child; child = child.nextSibling) walk(child);
    if (block) parts.push('\n\n');
  };
  walk(root);
  return tidyText(parts.join(''));
}

/** Collapses runs of spaces inside lines and of blank lines between paragraphs. */
export function tidyText(text: string): string {
  return text
    .replace(/\u0000/g, '')
    .split(/\n\s*\n/)
    .map((para) => para.replace(/\s+/g, ' ').trim())
    .filter((para) => para !== '')
    .join('\n\n');
}

/** ISO 8601 of a date text, or null when it is not a date. */
export function toIsoDate(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  const time = Date.parse(text);
  if (Number.isNaN(time)) return null;
  const year = new Date(time).getUTCFullYear();
  return year >= 1900 && year <= 2200 ? new Date(time).toISOString() : null;
}

function metaContent(document: Document, selector: string): string | null {
  const value = document.querySelector(selector)?.getAttribute('content')?.trim();
  return value ? value : null;
}

interface JsonLdFacts {
  types: string[];
  datePublished: string | null;
}

/** Reads every JSON-LD block: the types it declares and the first datePublished (incl. @graph). */
function readJsonLd(document: Document): JsonLdFacts {
  const facts: JsonLdFacts = { types: [], datePublished: null };
  const visit = (value: unknown, depth: number) => {
    if (depth > 6 || value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const item of value) visit(item, depth + 1);
      return;
    }
    const record = value as Record<string, unknown>;
    const type = record['@type'];
    for (const t of Array.isArray(type) ? type : [type]) if (typeof t === 'string') facts.types.push(t);
    if (!facts.datePublished && typeof record.datePublished === 'string') facts.datePublished = record.datePublished;
    if (record['@graph']) visit(record['@graph'], depth + 1);
    if (record.mainEntity) visit(record.mainEntity, depth + 1);
  };
  for (const script of document.querySelectorAll('script[type="application/ld+json"]')) {
    try {
      visit(JSON.parse(script.textContent ?? ''), 0);
    } catch {
      // Broken JSON-LD is common; the page's other metadata still counts.
    }
  }
  return facts;
}

function publishedTime(document: Document, jsonLd: JsonLdFacts): string | null {
  const candidates: Array<string | null> = [jsonLd.datePublished];
  for (const selector of PUBLISHED_META) candidates.push(metaContent(document, selector));
  const time =
    document.querySelector('time[pubdate][datetime], time[itemprop="datePublished"][datetime]') ??
    document.querySelector('article time[datetime], header time[datetime]') ??
    document.querySelector('time[datetime]');
  candidates.push(time?.getAttribute('datetime') ?? null);
  for (const candidate of candidates) {
    const iso = toIsoDate(candidate);
    if (iso) return iso;
  }
  return null;
}

function absoluteHttpUrl(value: string | null | undefined, base: string): string | null {
  if (!value) return null;
  try {
    const url = new URL(value.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

function declaredLanguage(document: Document): string | null {
  const lang =
    document.documentElement.getAttribute('lang') ??
    document.documentElement.getAttribute('xml:lang') ??
    metaContent(document, 'meta[http-equiv="content-language" i]') ??
    metaContent(document, 'meta[property="og:locale"]')?.replace('_', '-') ??
    null;
  const tag = lang?.split(',')[0].trim();
  return tag && /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(tag) ? tag : null;
}

/**
 * Scripts and style sheets carry no article text; dropping them before parsing spares jsdom its most
 * expensive work (CSS parsing). JSON-LD scripts stay: they carry metadata.
 */
function dropInertBlocks(html: string): string {
  return html
    .replace(/<script\b(?![^>]*\bapplication\/ld\+json)[^>]*>[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<style\b[^>]*>[\s\S]*?<\/style\s*>/gi, '');
}

/** Extracts the main text and metadata of an HTML page with @mozilla/readability on jsdom. */
export function extractHtml(body: Uint8Array, contentType: string, url: string): ExtractedDocument {
  const { text: html, encoding } = decodeHtml(body, contentType);
  const dom = new JSDOM(dropInertBlocks(html), { url, contentType: 'text/html', virtualConsole: new VirtualConsole() });
  try {
    const document = dom.window.document;
    // Metadata is read before Readability, which rewrites the document as it works.
    const jsonLd = readJsonLd(document);
    const hints: PageHints = {
      ogType: metaContent(document, 'meta[property="og:type"]')?.toLowerCase() ?? null,
      jsonLdTypes: [...new Set(jsonLd.types)],
      generator: metaContent(document, 'meta[name="generator"]'),
      scholarly: document.querySelector('meta[name^="citation_"]') !== null,
    };
    const language = declaredLanguage(document);
    const canonicalUrl =
      absoluteHttpUrl(document.querySelector('link[rel~="canonical" i]')?.getAttribute('href'), url) ??
      absoluteHttpUrl(metaContent(document, 'meta[property="og:url"]'), url);
    const published = publishedTime(document, jsonLd);
    const fallbackTitle = document.title?.trim() || null;
    const fallbackByline = metaContent(document, 'meta[name="author"]');

    const article = new Readability(document, { serializer: (node: Node) => blockText(node) }).parse();
    const content = article?.content ?? blockText(document.body ?? document.documentElement);
    return {
      kind: 'html',
      title: article?.title?.trim() || fallbackTitle,
      byline: article?.byline?.trim() || fallbackByline,
      language: language ?? (article?.lang || null),
      canonicalUrl,
      publishedAt: published ?? toIsoDate(article?.publishedTime),
      siteName: article?.siteName?.trim() || null,
      excerpt: article?.excerpt?.trim() || null,
      content,
      encoding,
      hints,
    };
  } finally {
    dom.window.close();
  }
}
