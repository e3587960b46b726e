import { JSDOM, VirtualConsole } from 'jsdom';
import { Readability } from '@mozilla/readability';
import { articleText } from './article-text';
import { decodeHtml } from '@research/core';
import { captionParagraphs, dropPageLandmarks } from './boilerplate';
import type { ExtractedDocument, PageHints } from './document';

/** Where pages state their publication time, best first: `<meta>` attribute and value, compared in lower case. */
const PUBLISHED_META = [
  'property=article:published_time',
  'name=article:published_time',
  'itemprop=datepublished',
  'property=og:published_time',
  'name=citation_publication_date',
  'name=citation_date',
  'name=dc.date.issued',
  'name=dcterms.created',
  'name=dc.date',
  'name=date',
  'name=pubdate',
  'name=publishdate',
  'name=publish-date',
  'name=sailthru.date',
  'name=parsely-pub-date',
];

const META_KEYS = ['name', 'property', 'itemprop', 'http-equiv'];

/** ISO 8601 of a date text, or null when it is not a date. */
export function toIsoDate(value: string | null | undefined): string | null {
  const text = value?.trim();
  if (!text) return null;
  const time = Date.parse(text);
  if (Number.isNaN(time)) return null;
  const year = new Date(time).getUTCFullYear();
  return year >= 1900 && year <= 2200 ? new Date(time).toISOString() : null;
}

/**
 * The `<meta>` tags of a page by `attribute=value` (lower case), first non-empty content wins. One pass over
 * the tags: a CSS selector per question would walk the whole document each time (a quarter of the
 * extraction's time on real pages).
 */
function readMetaTags(document: Document): Map<string, string> {
  const tags = new Map<string, string>();
  for (const meta of document.getElementsByTagName('meta')) {
    const content = meta.getAttribute('content')?.trim();
    if (!content) continue;
    for (const attribute of META_KEYS) {
      const value = meta.getAttribute(attribute)?.trim().toLowerCase();
      const key = value ? `${attribute}=${value}` : null;
      if (key && !tags.has(key)) tags.set(key, content);
    }
  }
  return tags;
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
  for (const script of document.getElementsByTagName('script')) {
    if (script.getAttribute('type')?.trim().toLowerCase() !== 'application/ld+json') continue;
    try {
      visit(JSON.parse(script.textContent ?? ''), 0);
    } catch {
      // Broken JSON-LD is common; the page's other metadata still counts.
    }
  }
  return facts;
}

function insideArticleOrHeader(element: Element): boolean {
  for (let parent = element.parentElement; parent; parent = parent.parentElement) {
    if (parent.localName === 'article' || parent.localName === 'header') return true;
  }
  return false;
}

/** A `<time datetime>` that dates the page: marked as the publication time, else in an article or header, else any. */
function pageTime(document: Document): string | null {
  let inArticle: string | null = null;
  let any: string | null = null;
  for (const time of document.getElementsByTagName('time')) {
    const datetime = time.getAttribute('datetime');
    if (datetime === null) continue;
    if (time.hasAttribute('pubdate') || time.getAttribute('itemprop') === 'datePublished') return datetime;
    if (inArticle === null && insideArticleOrHeader(time)) inArticle = datetime;
    any ??= datetime;
  }
  return inArticle ?? any;
}

function publishedTime(document: Document, meta: Map<string, string>, jsonLd: JsonLdFacts): string | null {
  const candidates: Array<string | null | undefined> = [jsonLd.datePublished];
  for (const key of PUBLISHED_META) candidates.push(meta.get(key));
  candidates.push(pageTime(document));
  for (const candidate of candidates) {
    const iso = toIsoDate(candidate);
    if (iso) return iso;
  }
  return null;
}

/** The page's `<link rel="canonical">`. */
function canonicalLink(document: Document): string | null {
  for (const link of document.getElementsByTagName('link')) {
    const rel = link.getAttribute('rel')?.toLowerCase().split(/\s+/) ?? [];
    if (rel.includes('canonical')) return link.getAttribute('href');
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

function declaredLanguage(document: Document, meta: Map<string, string>): string | null {
  const lang =
    document.documentElement.getAttribute('lang') ??
    document.documentElement.getAttribute('xml:lang') ??
    meta.get('http-equiv=content-language') ??
    meta.get('property=og:locale')?.replace('_', '-') ??
    null;
  const tag = lang?.split(',')[0].trim();
  return tag && /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(tag) ? tag : null;
}

/**
 * Removes every `<tag …>…</tag>` element of one kind in one pass, except those whose attributes `keep`
 * accepts: what `html.replace(/<tag\b[^>]*>[\s\S]*?<\/tag\s*>/gi, '')` does, in linear time. The regex
 * scanned to the end of the page again from every opening tag that has no closing one (an unclosed
 * `<script` repeated over a page took minutes); here the first such tag ends the search, as no later
 * one can have a closing tag either.
 */
function dropElements(html: string, tag: string, keep?: (attributes: string) => boolean): string {
  const opening = new RegExp(`<${tag}\\b`, 'gi');
  const closing = new RegExp(`<\\/${tag}\\s*>`, 'gi');
  const kept: string[] = [];
  let copied = 0;
  for (let open = opening.exec(html); open; open = opening.exec(html)) {
    const end = html.indexOf('>', opening.lastIndex);
    if (end < 0) break;
    if (keep?.(html.slice(opening.lastIndex, end))) continue;
    closing.lastIndex = end + 1;
    if (!closing.exec(html)) break;
    kept.push(html.slice(copied, open.index));
    copied = opening.lastIndex = closing.lastIndex;
  }
  kept.push(html.slice(copied));
  return kept.join('');
}

/**
 * Scripts and style sheets carry no article text; dropping them before parsing spares jsdom its most
 * expensive work (CSS parsing). JSON-LD scripts stay: they carry metadata.
 */
function dropInertBlocks(html: string): string {
  const withoutScripts = dropElements(html, 'script', (attributes) => /\bapplication\/ld\+json/i.test(attributes));
  return dropElements(withoutScripts, 'style');
}

/**
 * Pages parsed in one window before it is replaced: a bound on whatever a window might gather over time.
 * Rare, because a new window means new prototypes, and jsdom's compiled code is thrown away and compiled
 * again for them.
 */
const PAGES_PER_WINDOW = 2000;

let parsingWindow: JSDOM | null = null;
let pagesInWindow = 0;

/**
 * Parses a page into a new document of this thread's jsdom window. Building a window installs every DOM
 * interface (~10 ms, more than parsing a typical page); a document from the window's DOMParser costs only
 * its parse. Such documents never run scripts or load anything; the window is pointed at the page's URL
 * first so the document has it.
 */
function parseDocument(html: string, url: string): Document {
  if (!parsingWindow || pagesInWindow >= PAGES_PER_WINDOW) {
    parsingWindow?.window.close();
    parsingWindow = new JSDOM('', { virtualConsole: new VirtualConsole() });
    // The selector engine behind querySelectorAll registers focus, key and mouse listeners on the window
    // for every document it queries, and they hold that document for the window's lifetime. This window
    // never dispatches an event, so its listeners are dropped: each page is garbage once extracted.
    parsingWindow.window.addEventListener = () => undefined;
    pagesInWindow = 0;
  }
  pagesInWindow++;
  parsingWindow.reconfigure({ url });
  return new parsingWindow.window.DOMParser().parseFromString(html, 'text/html');
}

/**
 * Readability's default `charThreshold`: an attempt whose text is shorter fails, and Readability tries again
 * with fewer of its rules (first without removing elements whose class names look like boilerplate).
 */
const ARTICLE_MIN_CHARS = 500;

/** Extracts the main text and metadata of an HTML page with @mozilla/readability on jsdom. */
export function extractHtml(body: Uint8Array, contentType: string, url: string): ExtractedDocument {
  const { text: html, encoding } = decodeHtml(body, contentType);
  const page = dropInertBlocks(html);
  return withDocument(page, url, (document) => {
    // Metadata is read before Readability, which rewrites the document as it works.
    const metadata = readMetadata(document, url);
    let article = readArticle(document);
    if ((article?.length ?? 0) < ARTICLE_MIN_CHARS) {
      // No attempt reached an article's length, and Readability returned the longest of its attempts: on a
      // page whose article is one short paragraph, the site's footer or menus, which only its later, laxer
      // attempts keep. The first attempt, with all of its rules, is the better guess for a short page.
      const strict = withDocument(page, url, (again) => readArticle(again, 1));
      if (strict?.textContent?.trim()) article = strict;
    }
    return {
      kind: 'html',
      ...articleFields(article, metadata),
      content: article?.content ?? articleText(document.body ?? document.documentElement),
      encoding,
      hints: metadata.hints,
    };
  });
}

/** Runs `read` on the parsed page, then empties the document. */
function withDocument<T>(html: string, url: string, read: (document: Document) => T): T {
  const document = parseDocument(html, url);
  try {
    return read(document);
  } finally {
    // The window tracks every element with an id or a name until it leaves its document: emptied, the
    // page is garbage at once instead of living on with the window (half the live heap, and the garbage
    // collector's marking work with it).
    document.documentElement?.remove();
  }
}

/**
 * The article of a page without its landmarks (navigation, banner, footer); with `charThreshold` 1 the
 * first attempt's, however short.
 */
function readArticle(document: Document, charThreshold = ARTICLE_MIN_CHARS) {
  dropPageLandmarks(document);
  const captions = captionParagraphs(document);
  return new Readability(document, {
    charThreshold,
    serializer: (node: Node) => articleText(node, captions),
  }).parse();
}

/** What the page says about itself in its head: meta tags, JSON-LD, canonical link, language. */
function readMetadata(document: Document, url: string) {
  const meta = readMetaTags(document);
  const jsonLd = readJsonLd(document);
  const hints: PageHints = {
    ogType: meta.get('property=og:type')?.toLowerCase() ?? null,
    jsonLdTypes: [...new Set(jsonLd.types)],
    generator: meta.get('name=generator') ?? null,
    scholarly: [...meta.keys()].some((key) => key.startsWith('name=citation_')),
  };
  return {
    hints,
    language: declaredLanguage(document, meta),
    canonicalUrl: absoluteHttpUrl(canonicalLink(document), url) ?? absoluteHttpUrl(meta.get('property=og:url'), url),
    published: publishedTime(document, meta, jsonLd),
    fallbackTitle: document.title?.trim() || null,
    fallbackByline: meta.get('name=author') ?? null,
  };
}

/** The document's fields Readability found, the page's own metadata winning where it declares them. */
function articleFields(
  article: ReturnType<Readability['parse']>,
  metadata: ReturnType<typeof readMetadata>,
): Pick<ExtractedDocument, 'title' | 'byline' | 'language' | 'canonicalUrl' | 'publishedAt' | 'siteName' | 'excerpt'> {
  return {
    title: article?.title?.trim() || metadata.fallbackTitle,
    byline: article?.byline?.trim() || metadata.fallbackByline,
    language: metadata.language ?? (article?.lang || null),
    canonicalUrl: metadata.canonicalUrl,
    publishedAt: metadata.published ?? toIsoDate(article?.publishedTime),
    siteName: article?.siteName?.trim() || null,
    excerpt: article?.excerpt?.trim() || null,
  };
}
