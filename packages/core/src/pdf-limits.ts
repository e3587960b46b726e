import zlib from 'node:zlib';

/**
 * Bytes the compressed streams of one PDF may inflate to, all together (image streams aside: text
 * extraction never decodes them). A real document of a few MB rarely needs a tenth of it; a "zip bomb"
 * (a small file whose stream inflates to hundreds of MB) is refused before any parser holds it.
 */
export const MAX_PDF_INFLATED_BYTES = 64 * 1024 * 1024;
/** Pages of one PDF whose text is read at most. */
export const MAX_PDF_PAGES = 300;
/** How long reading one PDF may take. */
export const MAX_PDF_MS = 30_000;

const STREAM = Buffer.from('stream', 'latin1');
const END_STREAM = Buffer.from('endstream', 'latin1');
/** How far before `stream` its dictionary is looked for. */
const MAX_DICTIONARY = 64 * 1024;

/** The number of FlateDecode filters a stream dictionary applies first (0 when another filter comes first). */
function leadingFlateFilters(dictionary: string): number {
  const filter = /\/Filter\s*(\[[^\]]*\]|\/[A-Za-z0-9]+)/.exec(dictionary)?.[1];
  if (!filter) return 0;
  let count = 0;
  for (const name of filter.match(/\/[A-Za-z0-9]+/g) ?? []) {
    if (name !== '/FlateDecode' && name !== '/Fl') break;
    count++;
  }
  return count;
}

/**
 * Why a PDF must not be parsed, or null: its Flate streams (other than images) inflate to more than
 * `maxInflated` bytes together. Each stream is inflated with the budget left as its output limit, so
 * no more than the budget is ever held. Linear in the file's size.
 */
export function pdfOverLimits(bytes: Uint8Array, maxInflated = MAX_PDF_INFLATED_BYTES): string | null {
  const pdf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const refusal = `The PDF's content inflates to more than ${maxInflated} bytes.`;
  let inflated = 0;
  let at = 0;
  for (;;) {
    const keyword = pdf.indexOf(STREAM, at);
    if (keyword < 0) return null;
    let start = keyword + STREAM.length;
    if (pdf[start] === 0x0d) start++;
    if (pdf[start] === 0x0a) start++;
    const isEndKeyword = keyword >= 3 && pdf.toString('latin1', keyword - 3, keyword) === 'end';
    if (isEndKeyword || start === keyword + STREAM.length) {
      at = keyword + STREAM.length;
      continue;
    }
    // The dictionary lies between the object's `obj` and `stream`, after the previous stream's end.
    const head = pdf.toString('latin1', Math.max(at, keyword - MAX_DICTIONARY), keyword);
    const dictionary = head.slice(Math.max(0, head.lastIndexOf('obj')));
    const found = pdf.indexOf(END_STREAM, start);
    const end = found < 0 ? pdf.length : found;
    const filters = /\/Subtype\s*\/Image\b/.test(dictionary) ? 0 : leadingFlateFilters(dictionary);
    let data: Buffer = pdf.subarray(start, end);
    for (let i = 0; i < filters; i++) {
      const left = maxInflated - inflated;
      if (left <= 0) return refusal;
      try {
        data = zlib.inflateSync(data, { maxOutputLength: left, finishFlush: zlib.constants.Z_SYNC_FLUSH });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return refusal;
        // Broken data: the parser will not get more out of it than zlib did.
        break;
      }
      inflated += data.length;
    }
    // A stream without `endstream` runs to the end of the file: no stream follows it.
    if (found < 0) return null;
    at = end + END_STREAM.length;
  }
}
