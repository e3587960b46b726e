import { isUtf8 } from 'node:buffer';
import iconv from 'iconv-lite';
import sniffHtmlEncoding from 'html-encoding-sniffer';

/** The charset parameter of a Content-Type header, if any. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match ? match[1] : undefined;
}

/**
 * Decodes with the WHATWG decoder (Node's ICU: the exact mapping browsers use, ISO-2022-JP included);
 * iconv-lite covers the labels a small-ICU Node build lacks, and windows-1252, which Node 20's decoder reads as
 * ISO-8859-1 (bytes 0x80–0x9F as control characters instead of ’ “ ” – € …: every page labelled latin1 or
 * windows-1252 lost its quotes and dashes); unknown labels fall back to UTF-8.
 */
function decodeAs(body: Uint8Array, encoding: string): string {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  if (encoding.toLowerCase() === 'windows-1252') return iconv.decode(bytes, 'windows-1252');
  try {
    return new TextDecoder(encoding).decode(body);
  } catch {
    const name = iconv.encodingExists(encoding) ? encoding : 'utf-8';
    return iconv.decode(bytes, name).replace(/^\uFEFF/, '');
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A body that declares no charset: UTF-8 (without a BOM) when its bytes are valid UTF-8, else windows-1252. */
function undeclared(body: Uint8Array): { text: string; encoding: string } {
  try {
    return { text: strictUtf8.decode(body), encoding: 'UTF-8' };
  } catch {
    return { text: decodeAs(body, 'windows-1252'), encoding: 'windows-1252' };
  }
}

/**
 * How far into a page a `<meta>` declaring its charset is looked for, when the first 1,024 bytes the standard's
 * prescan reads hold none: a browser that meets the declaration later in the head re-reads the page with it, and
 * real heads put it after kilobytes of inline scripts and styles (19 of Readability's 130 test pages). The head
 * ends sooner on every page; the bound keeps a page without `</head>` from being scanned whole.
 */
const HEAD_SCAN_BYTES = 256 * 1024;

/**
 * `view` with its comments, scripts and styles (where a `<meta>` would be no tag) blanked out, each character a
 * space, so that indexes stay; one pass, an unclosed one blanks the rest.
 */
function blankInert(view: string): string {
  const lower = view.toLowerCase();
  const opening = /<!--|<script\b|<style\b/gu;
  let out = '';
  let at = 0;
  for (let open = opening.exec(lower); open; open = opening.exec(lower)) {
    const close = open[0] === '<!--' ? '-->' : open[0] === '<script' ? '</script' : '</style';
    const closed = lower.indexOf(close, open.index + open[0].length);
    const end = closed < 0 ? lower.length : closed + close.length;
    out += view.slice(at, open.index) + ' '.repeat(end - open.index);
    at = end;
    opening.lastIndex = end;
  }
  return out + view.slice(at);
}

/**
 * The charset a `<meta>` of the page's head declares (the first that declares one, read by the standard's prescan
 * from the tag on), or null: the head is what comes before `</head>` or `<body>`, comments, scripts and styles
 * left out.
 */
function declaredInHead(body: Uint8Array): string | null {
  const scanned = Math.min(body.byteLength, HEAD_SCAN_BYTES);
  // Latin-1 keeps one character per byte, so a match's index is the tag's byte offset.
  const view = blankInert(Buffer.from(body.buffer, body.byteOffset, scanned).toString('latin1'));
  const end = /<\/head\s*>|<body[\s>]/iu.exec(view)?.index ?? view.length;
  const tags = /<meta[\s/]/giu;
  for (let tag = tags.exec(view); tag && tag.index < end; tag = tags.exec(view)) {
    const declared = sniffHtmlEncoding(body.subarray(tag.index, tag.index + 1024), { defaultEncoding: '' });
    if (declared) return declared;
  }
  return null;
}

/**
 * Decodes an HTML body as a browser that sniffs content reads it: its BOM, the header's charset, a `<meta charset>`
 * or `http-equiv` of its head (the standard's prescan of the first 1,024 bytes, then the rest of the head, see
 * declaredInHead); a page declaring nothing is UTF-8 when its bytes are valid UTF-8 (as browsers' own detectors
 * find), else windows-1252.
 */
export function decodeHtml(body: Uint8Array, contentType?: string): { text: string; encoding: string } {
  const declared =
    sniffHtmlEncoding(body, { transportLayerEncodingLabel: charsetOf(contentType), defaultEncoding: '' }) ||
    declaredInHead(body);
  return declared ? { text: decodeAs(body, declared), encoding: declared } : undeclared(body);
}

/**
 * The Content-Type an HTML file at hand is read with (decodeHtml): it has no header, so one whose bytes are valid
 * UTF-8 is read as UTF-8 whatever its `<meta>` says (a page saved again as UTF-8 keeps the declaration of its first
 * encoding: Readability's test pages do), any other as a fetched page is.
 */
export function htmlFileType(body: Uint8Array): string {
  return isUtf8(body) ? 'text/html; charset=utf-8' : 'text/html';
}

/** Decodes a text/plain body: BOM, the header's charset, else UTF-8 (windows-1252 when not valid UTF-8). */
export function decodeText(body: Uint8Array, contentType?: string): { text: string; encoding: string } {
  const label = charsetOf(contentType);
  const sniffed = sniffHtmlEncoding(body, { xml: true, transportLayerEncodingLabel: label, defaultEncoding: 'UTF-8' });
  if (sniffed === 'UTF-8' && label === undefined) return undeclared(body);
  return { text: decodeAs(body, sniffed), encoding: sniffed };
}
