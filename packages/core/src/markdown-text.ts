// Markdown read as text: the local corpus's files (packages/search) and a collection's uploads (the crawler's
// extraction pool, where a pathological file costs a pool thread its time limit, not the event loop).
//
// The steps that scan to a closing character (links, images, tags, reference definitions, the title's
// trailing markup) are hand scans with the exact results of the regular expressions they replace
// (quoted beside each): those expressions retried their scan from every opening character, and megabytes of
// `[`, `![` or `<` took minutes. Each scan below remembers where the next closing character is, so every
// character is read a bounded number of times.

/** Markdown as readable text: front matter, link targets, image URLs and markup removed. */
export function markdownToText(markdown: string): { title: string | null; text: string } {
  let body = markdown.replace(/^\uFEFF/, '');
  let title: string | null = null;
  const frontMatter = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(body);
  if (frontMatter) {
    const match = frontMatterTitle(frontMatter[1]!);
    if (match !== null) title = match.trim();
    body = body.slice(frontMatter[0].length);
  }
  if (!title) {
    const heading = headingTitle(body);
    if (heading !== null) title = heading.trim();
  }
  const text = removeTags(
    removeReferenceDefinitions(replaceLinks(replaceLinks(body.replace(/^```.*$/gm, ''), '!['), '[')),
  )
    .replace(/^\s{0,3}#{1,6}\s+/gm, '')
    .replace(/^\s{0,3}>\s?/gm, '')
    .replace(/(\*\*|__|~~|`)/g, '')
    .replace(/(^|\s)[*_](\S[^*_\n]*?)[*_](?=\s|[.,;:!?]|$)/g, '$1$2')
    .replace(/[ \t]+/g, ' ')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return { title, text };
}

const SPACE = /\s/;
const isSpace = (char: string | undefined): boolean => char !== undefined && SPACE.test(char);
const isLineEnd = (char: string | undefined): boolean =>
  char === '\n' || char === '\r' || char === '\u2028' || char === '\u2029';
const isQuote = (char: string | undefined): boolean => char === '"' || char === "'";

/**
 * The first index at or after `from` where `pattern` matches in `text`, or -1; asked with `from` never
 * decreasing, it searches again only once `from` has passed what it found last.
 */
function forwardSearch(text: string, pattern: RegExp): (from: number) => number {
  const search = new RegExp(pattern.source, 'g');
  let searchedFrom = Infinity;
  let found = -1;
  return (from) => {
    if (from < searchedFrom || (found !== -1 && found < from)) {
      search.lastIndex = from;
      found = search.exec(text)?.index ?? -1;
      searchedFrom = from;
    }
    return found;
  };
}

/** The end of the line `at` is on: the next line terminator (what `$` matches before in multiline mode), or the end. */
function lineEnd(text: string, at: number): number {
  const search = /[\n\r\u2028\u2029]/g;
  search.lastIndex = at;
  return search.exec(text)?.index ?? text.length;
}

/** The first character of a title line after its opening markup, whatever whitespace (line breaks too) follows it. */
function firstNonSpace(text: string, from: number): number {
  const search = /\S/g;
  search.lastIndex = from;
  return search.exec(text)?.index ?? -1;
}

/**
 * When the text after a title's opening markup is only whitespace, the expressions below still matched its
 * last character that is not a line terminator (a title of one space, trimmed to the empty title).
 */
function lastInlineCharacter(text: string, from: number): string | null {
  for (let at = text.length - 1; at >= from; at--) if (!isLineEnd(text[at])) return text[at]!;
  return null;
}

/** What `/^title:\s*["']?(.+?)["']?\s*$/m` captures in front matter, or null. */
function frontMatterTitle(frontMatter: string): string | null {
  const found = /^title:/m.exec(frontMatter);
  if (!found) return null;
  const after = found.index + 'title:'.length;
  const first = firstNonSpace(frontMatter, after);
  if (first === -1) return lastInlineCharacter(frontMatter, after);
  // An opening quote is left out unless the title would be empty without it.
  const start = isQuote(frontMatter[first]) && !isLineEnd(frontMatter[first + 1] ?? '\n') ? first + 1 : first;
  let end = lineEnd(frontMatter, start);
  while (end > start && isSpace(frontMatter[end - 1])) end--;
  if (end > start && isQuote(frontMatter[end - 1])) end--;
  return frontMatter.slice(start, Math.max(start + 1, end));
}

/** What `/^#\s+(.+?)\s*#*\s*$/m` captures (the first level-one heading's text), or null. */
function headingTitle(body: string): string | null {
  const found = /^#\s/m.exec(body);
  if (!found) return null;
  const first = firstNonSpace(body, found.index + 1);
  if (first === -1) return lastInlineCharacter(body, found.index + 2);
  let end = lineEnd(body, first);
  while (end > first && isSpace(body[end - 1])) end--;
  if (body[end - 1] === '#') {
    while (end > first && body[end - 1] === '#') end--;
    while (end > first && isSpace(body[end - 1])) end--;
  }
  return body.slice(first, Math.max(first + 1, end));
}

/** `/!\[([^\]]*)\]\([^)]*\)/g` (opening `![`) or `/\[([^\]]+)\]\([^)]*\)/g` (opening `[`), replaced by their text. */
function replaceLinks(text: string, opening: '![' | '['): string {
  const nextBracket = forwardSearch(text, /\]/);
  const nextParenthesis = forwardSearch(text, /\)/);
  const parts: string[] = [];
  let copied = 0;
  for (let at = text.indexOf(opening); at !== -1;) {
    const label = at + opening.length;
    const close = nextBracket(label);
    if (close === -1) break;
    if ((opening === '![' || close > label) && text[close + 1] === '(') {
      const end = nextParenthesis(close + 2);
      if (end === -1) break;
      parts.push(text.slice(copied, at), text.slice(label, close));
      copied = end + 1;
      at = text.indexOf(opening, copied);
    } else at = text.indexOf(opening, at + 1);
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

/** `/<[^>\n]+>/g` removed. */
function removeTags(text: string): string {
  const nextClose = forwardSearch(text, />/);
  const nextNewline = forwardSearch(text, /\n/);
  const parts: string[] = [];
  let copied = 0;
  for (let at = text.indexOf('<'); at !== -1;) {
    const close = nextClose(at + 1);
    if (close === -1) break;
    const newline = nextNewline(at + 1);
    if (close > at + 1 && (newline === -1 || newline > close)) {
      parts.push(text.slice(copied, at));
      copied = close + 1;
      at = text.indexOf('<', copied);
    } else at = text.indexOf('<', at + 1);
  }
  parts.push(text.slice(copied));
  return parts.join('');
}

/** `/^\s*\[[^\]]+\]:\s+\S+.*$/gm` (link reference definitions, with the blank lines before them) removed. */
function removeReferenceDefinitions(text: string): string {
  const nextContent = forwardSearch(text, /\S/);
  const nextBracket = forwardSearch(text, /\]/);
  const nextTarget = forwardSearch(text, /\S/);
  const nextLineEnd = forwardSearch(text, /[\n\r\u2028\u2029]/);
  const parts: string[] = [];
  let copied = 0;
  for (let at = 0; at < text.length; at++) {
    if (at > 0 && !isLineEnd(text[at - 1])) continue;
    const open = nextContent(at);
    if (open === -1) break;
    if (text[open] !== '[') continue;
    const close = nextBracket(open + 1);
    if (close === -1) break;
    if (close === open + 1 || text[close + 1] !== ':') continue;
    const target = nextTarget(close + 2);
    if (target === -1) break;
    if (target === close + 2) continue;
    const end = nextLineEnd(target);
    parts.push(text.slice(copied, at));
    copied = end === -1 ? text.length : end;
    at = copied;
  }
  parts.push(text.slice(copied));
  return parts.join('');
}
