import PDFDocument from 'pdfkit';
import { createPause, findingCitation, type Pause } from '@research/core';
import { LABELS, citationMarks, confidenceText, readableTime } from './report-labels';
import type { DocumentDisagreement, DocumentFinding, ReportDocument } from '@research/runs';

type Pdf = PDFKit.PDFDocument;

// The standard PDF fonts need no file and keep the document small; they encode WinAnsi (Latin-1 and a few
// typographic marks), which holds the service's languages (umlauts, accents, „quotes“, €). These are the
// WinAnsi characters outside Latin-1.
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');

function encodable(char: string): boolean {
  const code = char.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char);
}

/**
 * Text the standard fonts can show, on one line: a character they cannot encode becomes its letters without
 * accents when it has them (ő → o, ﬁ → fi), otherwise `?`. (The font would otherwise write bytes of another
 * character: garbage in print and in the extracted text.)
 */
export function winAnsiText(text: string): string {
  let out = '';
  for (const char of text.replace(/\s+/g, ' ')) {
    if (encodable(char)) {
      out += char;
      continue;
    }
    const base = [...char.normalize('NFKD').replace(/\p{M}/gu, '')].filter(encodable).join('');
    out += base || '?';
  }
  return out.trim();
}

const FONT = 'Helvetica';
const BOLD = 'Helvetica-Bold';
const ITALIC = 'Helvetica-Oblique';
const GREY = '#555555';

function heading(pdf: Pdf, title: string): void {
  pdf.moveDown(0.8).font(BOLD).fontSize(14).fillColor('black').text(title).moveDown(0.3);
  pdf.font(FONT).fontSize(10.5);
}

function finding(pdf: Pdf, f: DocumentFinding): void {
  pdf.font(BOLD).fillColor('black').text(`F${f.number}. `, { continued: true });
  pdf.font(FONT).text(`${winAnsiText(f.text)} ${citationMarks(f.citations)}`);
  pdf.fillColor(GREY).fontSize(9).text(confidenceText(f.confidence)).fontSize(10.5).fillColor('black');
  for (const q of f.quotes) {
    pdf.font(ITALIC).text(`“${winAnsiText(q.text)}” [${q.citation}]`, { indent: 18 });
  }
  pdf.font(FONT).moveDown(0.5);
}

function disagreement(pdf: Pdf, d: DocumentDisagreement): void {
  pdf.font(BOLD).text(winAnsiText(d.claim)).font(FONT);
  if (d.detail) pdf.text(winAnsiText(d.detail));
  for (const p of d.positions) {
    const who = p.citation !== null ? `[${p.citation}]` : winAnsiText(p.source);
    pdf.text(`• ${who}${p.stance ? ` (${winAnsiText(p.stance)})` : ''}: ${winAnsiText(p.view)}`, { indent: 12 });
  }
  if (d.findings.length > 0) pdf.text(`${LABELS.touches}: ${d.findings.map((n) => `F${n}`).join(', ')}`);
  pdf.moveDown(0.5);
}

/** The document's parts in order, each drawn by one call (the renderer gives the event loop a turn between). */
function* parts(doc: ReportDocument): Generator<(pdf: Pdf) => void> {
  const generated = readableTime(doc.generatedAt);
  yield (pdf) => {
    pdf.font(BOLD).fontSize(18).text(winAnsiText(doc.title)).moveDown(0.3);
    pdf.font(FONT).fontSize(9).fillColor(GREY);
    pdf.text(`${LABELS.run} ${doc.researchId}${generated ? `, ${LABELS.generated} ${generated}` : ''}`);
    heading(pdf.fillColor('black'), LABELS.summary);
    const summary = doc.summary.map((p) => (typeof p === 'number' ? findingCitation(p) : p)).join('');
    pdf.text(winAnsiText(summary));
  };
  if (doc.findings.length > 0) yield (pdf) => heading(pdf, LABELS.findings);
  for (const f of doc.findings) yield (pdf) => finding(pdf, f);
  if (doc.disagreements.length > 0) yield (pdf) => heading(pdf, LABELS.disagreements);
  for (const d of doc.disagreements) yield (pdf) => disagreement(pdf, d);
  if (doc.uncertainties.length > 0)
    yield (pdf) => {
      heading(pdf, LABELS.uncertainties);
      for (const u of doc.uncertainties) pdf.text(`• ${winAnsiText(u)}`, { indent: 12 });
    };
  if (doc.methodology)
    yield (pdf) => {
      heading(pdf, LABELS.methodology);
      pdf.text(winAnsiText(doc.methodology));
    };
  if (doc.sources.length > 0) yield (pdf) => heading(pdf, LABELS.sources);
  for (const s of doc.sources)
    yield (pdf) => {
      pdf.text(`[${s.number}] ${winAnsiText(s.title ?? LABELS.untitled)}`);
      const url = winAnsiText(s.url);
      pdf.fillColor('#0b57d0').text(url, { indent: 18, link: /^https?:\/\//i.test(s.url) ? s.url : null });
      pdf.fillColor(GREY).text(`${LABELS.retrieved} ${readableTime(s.retrievedAt)}`, { indent: 18 });
      pdf.fillColor('black').moveDown(0.3);
    };
}

/**
 * A report as a PDF (A4, standard fonts, text extractable): see ReportDocument. Laying out text is CPU
 * work (a run of a few hundred findings takes longer than a request may wait), so it pauses between the
 * document's parts (createPause) and other requests go on meanwhile.
 */
export async function renderReportPdf(doc: ReportDocument, pause: Pause = createPause()): Promise<Buffer> {
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: winAnsiText(doc.title), Subject: `${LABELS.run} ${doc.researchId}` },
  });
  const chunks: Buffer[] = [];
  pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    pdf.on('end', resolve);
    pdf.on('error', reject);
  });
  pdf.font(FONT).fontSize(10.5);
  for (const draw of parts(doc)) {
    draw(pdf);
    await pause();
  }
  pdf.end();
  await ended;
  return Buffer.concat(chunks);
}
