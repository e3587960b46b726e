import iconv from 'iconv-lite';
import sniffHtmlEncoding from 'html-encoding-sniffer';

/** The charset parameter of a Content-Type header, if any. */
export function charsetOf(contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType ?? '');
  return match ? match[1] : undefined;
}

/**
 * Decodes with the WHATWG decoder (Node's ICU: the exact mapping browsers use, ISO-2022-JP included);
 * iconv-lite covers the labels a small-ICU Node build lacks; unknown labels fall back to UTF-8.
 */
function decodeAs(body: Uint8Array, encoding: string): string {
  try {
    return new TextDecoder(encoding).decode(body);
  } catch {
    const name = iconv.encodingExists(encoding) ? encoding : 'utf-8';
    return iconv.decode(Buffer.from(body.buffer, body.byteOffset, body.byteLength), name).replace(/^\uFEFF/, '');
  }
}

/**
 * Decodes an HTML body the way a browser does (WHATWG sniffing): BOM, then the header's charset,
 * then a `<meta charset>` / `http-equiv` in the first 1024 bytes, then windows-1252.
 */
export function decodeHtml(body: Uint8Array, contentType?: string): { text: string; encoding: string } {
  const encoding = sniffHtmlEncoding(body, { transportLayerEncodingLabel: charsetOf(contentType) });
  return { text: decodeAs(body, encoding), encoding };
}

/** Decodes a text/plain body: BOM, the header's charset, else UTF-8 (windows-1252 when not valid UTF-8). */
export function decodeText(body: Uint8Array, contentType?: string): { text: string; encoding: string } {
  const label = charsetOf(contentType);
  const sniffed = sniffHtmlEncoding(body, { xml: true, transportLayerEncodingLabel: label, defaultEncoding: 'UTF-8' });
  if (sniffed === 'UTF-8' && label === undefined) {
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(body).replace(/^\uFEFF/, ''), encoding: 'UTF-8' };
    } catch {
      return { text: decodeAs(body, 'windows-1252'), encoding: 'windows-1252' };
    }
  }
  return { text: decodeAs(body, sniffed), encoding: sniffed };
}
