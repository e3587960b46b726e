import zlib from 'node:zlib';

/** One page of a test PDF: its content stream, raw or already compressed with the filter named. */
export interface PdfPage {
  content: Buffer;
  filter?: string;
}

/** A content stream showing lines of Latin-1 text in Helvetica. */
export function textContent(lines: string[]): Buffer {
  const escape = (s: string) => s.replace(/\\/g, '\\\\').replace(/\(/g, '\\(').replace(/\)/g, '\\)');
  return Buffer.from(`BT /F1 12 Tf 72 720 Td 14 TL ${lines.map((l) => `(${escape(l)}) Tj T*`).join(' ')} ET`, 'latin1');
}

/** A valid PDF 1.4 with the given pages (exact xref offsets), written by hand. */
export function writePdf(pages: PdfPage[]): Buffer {
  // 1: catalog, 2: page tree, 3: font, then a page object and its content stream per page.
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from(
      `<< /Type /Pages /Kids [${pages.map((_, i) => `${4 + 2 * i} 0 R`).join(' ')}] /Count ${pages.length} >>`,
    ),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>'),
  ];
  pages.forEach((page, i) => {
    objects.push(
      Buffer.from(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${5 + 2 * i} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`,
      ),
    );
    const filter = page.filter ? ` /Filter /${page.filter}` : '';
    objects.push(
      Buffer.concat([
        Buffer.from(`<< /Length ${page.content.length}${filter} >>\nstream\n`),
        page.content,
        Buffer.from('\nendstream'),
      ]),
    );
  });
  const parts: Buffer[] = [Buffer.from('%PDF-1.4\n')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(length);
    const object = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
    parts.push(object);
    length += object.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((n) => `${String(n).padStart(10, '0')} 00000 n \n`).join('') +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`;
  parts.push(Buffer.from(xref));
  return Buffer.concat(parts);
}

/**
 * A "zip bomb" PDF: one page whose FlateDecode content stream (text operators, repeated) inflates to
 * `inflatedBytes`; the file itself is about a thousandth of that. Compressed chunk by chunk, so building
 * it never holds the inflated text.
 */
export async function pdfBomb(inflatedBytes: number): Promise<Buffer> {
  const line = Buffer.from('BT /F1 12 Tf 72 720 Td (All work and no play makes a dull crawler.) Tj ET\n');
  const chunk = Buffer.alloc(1024 * 1024);
  for (let at = 0; at < chunk.length; at += line.length) line.copy(chunk, at);
  const deflate = zlib.createDeflate({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (data: Buffer) => out.push(data));
  const finished = new Promise<void>((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  for (let written = 0; written < inflatedBytes; written += chunk.length) {
    if (!deflate.write(chunk)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await finished;
  return writePdf([{ content: Buffer.concat(out), filter: 'FlateDecode' }]);
}
