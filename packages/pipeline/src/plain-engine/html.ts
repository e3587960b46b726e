// Plain HTML to text for the placeholder engine; the real extraction (readability, PDFs) is the crawler's.

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  laquo: '«',
  raquo: '»',
  bdquo: '„',
  ldquo: '“',
  rdquo: '”',
  lsquo: '‘',
  rsquo: '’',
  sbquo: '‚',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  szlig: 'ß',
  eacute: 'é',
  egrave: 'è',
  agrave: 'à',
  ccedil: 'ç',
  copy: '©',
  reg: '®',
  deg: '°',
  middot: '·',
  shy: '',
  thinsp: ' ',
  ensp: ' ',
  emsp: ' ',
};

/** Decodes named (common) and numeric character references in one pass, so `&amp;lt;` stays `&lt;`. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#\d{1,7}|#x[0-9a-f]{1,6}|[a-z]{2,8});/gi, (whole, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      if (!Number.isFinite(code) || code <= 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return ' ';
      return String.fromCodePoint(code);
    }
    return NAMED[ref] ?? whole;
  });
}

const DROPPED = /<(script|style|noscript|template|svg|head|nav|footer|aside|form|iframe)\b[\s\S]*?<\/\1\s*>/gi;
const BLOCK =
  /<\/?(?:p|div|br|li|ul|ol|h[1-6]|tr|td|th|table|section|article|header|main|blockquote|pre|dd|dt|dl|figure|figcaption|hr)\b[^>]*>/gi;

/** Visible text of an HTML page, one block per line. */
export function htmlToText(html: string): string {
  const text = decodeEntities(
    html
      .replace(/<!--[\s\S]*?-->/g, ' ')
      .replace(DROPPED, ' ')
      .replace(BLOCK, '\n')
      .replace(/<[^>]*>/g, ''),
  );
  return text
    .split('\n')
    .map((line) => line.replace(/[\s\u00a0]+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

/** The page title: <title> without a " - Wikipedia" style suffix, else the first <h1>. */
export function htmlTitle(html: string): string | null {
  const title = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html)?.[1] ?? /<h1\b[^>]*>([\s\S]*?)<\/h1>/i.exec(html)?.[1];
  if (!title) return null;
  const text = decodeEntities(title.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s[-–—|]\s*Wikipedia.*$/i, '');
  return text || null;
}
