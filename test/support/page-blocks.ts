import fs from 'node:fs';
import path from 'node:path';
import { Parser } from 'htmlparser2';

/**
 * What a block of a page is, by its place in the markup alone (never by its words, which are what the
 * statement rules judge): a heading or the page title, navigation, the page footer, a figure caption, a
 * byline, an entry of a reference list, or anything else.
 */
export type BlockRole = 'heading' | 'navigation' | 'footer' | 'caption' | 'byline' | 'reference' | 'other';

export interface PageBlock {
  /** The block's visible text, whitespace collapsed. */
  text: string;
  role: BlockRole;
  /** The element that holds the text (p, li, h2, div, …). */
  tag: string;
  /** The element names from the root to the block. */
  path: string[];
}

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'canvas', 'select']);
const BLOCKS = new Set(
  (
    'address article aside blockquote br caption dd div dl dt figcaption figure footer form h1 h2 h3 h4 h5 h6 ' +
    'header hr li main nav ol p pre section table td th title tr ul'
  ).split(' '),
);
const VOID = new Set('area base br col embed hr img input link meta source track wbr'.split(' '));

interface Open {
  name: string;
  /** class, id and role tokens, lower case, split at spaces, dashes and underscores. */
  tokens: string[];
}

const REFERENCE_LIST = /^(references|reflist|citations|bibliography|footnotes)$/;

function roleOf(stack: readonly Open[]): BlockRole {
  const any = (test: (e: Open) => boolean) => stack.some(test);
  if (
    any((e) => e.name === 'cite') ||
    any((e) => ['ol', 'ul', 'div'].includes(e.name) && e.tokens.some((t) => REFERENCE_LIST.test(t)))
  )
    return 'reference';
  if (any((e) => /^h[1-6]$/.test(e.name) || e.name === 'title')) return 'heading';
  if (any((e) => e.name === 'figcaption')) return 'caption';
  if (any((e) => e.tokens.includes('byline') || e.tokens.includes('dateline'))) return 'byline';
  if (
    any(
      (e) =>
        e.name === 'nav' ||
        e.tokens.includes('navigation') ||
        e.tokens.includes('breadcrumb') ||
        e.tokens.includes('breadcrumbs') ||
        ((e.name === 'ul' || e.name === 'ol') && e.tokens.some((t) => t === 'nav' || t === 'menu' || t === 'navbar')),
    )
  )
    return 'navigation';
  if (any((e) => e.name === 'footer' || e.tokens.includes('contentinfo'))) return 'footer';
  return 'other';
}

/** The text blocks of an HTML page in order, each with the role its markup gives it. */
export function pageBlocks(html: string): PageBlock[] {
  const blocks: PageBlock[] = [];
  const stack: Open[] = [];
  let text = '';
  let skipped = 0;
  const flush = () => {
    const collapsed = text.replace(/\s+/g, ' ').trim();
    text = '';
    if (!collapsed) return;
    blocks.push({
      text: collapsed,
      role: roleOf(stack),
      tag: stack[stack.length - 1]?.name ?? '',
      path: stack.map((e) => e.name),
    });
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (SKIPPED.has(name)) skipped++;
        if (BLOCKS.has(name)) flush();
        if (VOID.has(name)) return;
        const tokens = `${attributes.class ?? ''} ${attributes.id ?? ''} ${attributes.role ?? ''}`
          .toLowerCase()
          .split(/[\s_-]+/)
          .filter(Boolean);
        stack.push({ name, tokens });
      },
      ontext(chunk) {
        if (skipped === 0) text += chunk;
      },
      onclosetag(name) {
        if (BLOCKS.has(name)) flush();
        if (SKIPPED.has(name)) skipped = Math.max(0, skipped - 1);
        if (VOID.has(name)) return;
        const at = stack.map((e) => e.name).lastIndexOf(name);
        if (at >= 0) stack.length = at;
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return blocks;
}

/** Text for comparing blocks: lower case, whitespace collapsed. */
export function flatText(text: string): string {
  return text.replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A page of Readability's test set: its blocks by what they are, against the article Readability extracts. */
export interface ReadabilityPage {
  language: string;
  /** Blocks of source.html outside the article that its markup makes headings, navigation, footers, captions or bylines. */
  chrome: PageBlock[];
  /** Entries of the page's reference lists, in the article or not. */
  references: PageBlock[];
  /** Every block of source.html outside the article text, whatever its markup says. */
  outside: PageBlock[];
  /** The article's prose: its paragraphs (expected.html), outside lists, tables, figures and asides. */
  prose: PageBlock[];
}

const NOT_PROSE = new Set(['li', 'table', 'figure', 'header', 'footer', 'nav', 'aside']);

/** The blocks of the Readability test page in `dir` (source.html, expected.html, expected-metadata.json). */
export function readabilityPage(dir: string): ReadabilityPage {
  const source = pageBlocks(fs.readFileSync(path.join(dir, 'source.html'), 'utf8'));
  const expected = pageBlocks(fs.readFileSync(path.join(dir, 'expected.html'), 'utf8'));
  const metadata = JSON.parse(fs.readFileSync(path.join(dir, 'expected-metadata.json'), 'utf8')) as { lang?: string };
  const article = flatText(expected.map((b) => b.text).join(' '));
  const outside = source.filter((b) => !article.includes(flatText(b.text)));
  return {
    language: metadata.lang ?? 'en',
    chrome: outside.filter((b) => b.role !== 'other' && b.role !== 'reference'),
    references: source.filter((b) => b.role === 'reference'),
    outside,
    prose: expected.filter((b) => b.tag === 'p' && b.role === 'other' && !b.path.some((t) => NOT_PROSE.has(t))),
  };
}
