import { findingCitation } from '@research/core';
import { LABELS, confidenceText, readableTime } from './report-labels';
import type { DocumentDisagreement, DocumentFinding, ReportDocument, SummaryPart } from '@research/runs';

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text of a source or a run as HTML text or attribute value: nothing in it is markup. */
function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

// Inline only: the page is one file a reader can save and open anywhere, and it loads nothing.
const STYLE = `
body{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Helvetica,Arial,sans-serif;color:#1b1b1b;max-width:46rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem;line-height:1.25}h2{font-size:1.2rem;margin-top:2rem;border-bottom:1px solid #ddd}
.meta,.confidence{color:#666;font-size:.875rem}
blockquote{margin:.5rem 0 .5rem 1rem;padding-left:.75rem;border-left:3px solid #ccc;color:#333}
a{color:#0b57d0}sup,.cite{font-size:.8em}
ol.plain{padding-left:0;list-style:none}ol.sources li{margin:.35rem 0;overflow-wrap:anywhere}
`.trim();

// What the page may do, for a browser that reads it from a file or a proxy without the response's headers.
const CSP = "default-src 'none'; style-src 'unsafe-inline'";

function cites(numbers: readonly number[]): string {
  return numbers.map((n) => `<a class="cite" href="#source-${n}">[${n}]</a>`).join('');
}

function summary(parts: readonly SummaryPart[]): string {
  return parts
    .map((p) => (typeof p === 'number' ? `<a href="#finding-${p}">${findingCitation(p)}</a>` : escape(p)))
    .join('');
}

function finding(f: DocumentFinding): string {
  const quotes = f.quotes.map((q) => `<blockquote>“${escape(q.text)}” ${cites([q.citation])}</blockquote>`);
  return (
    `<li id="finding-${f.number}"><p><strong>F${f.number}.</strong> ${escape(f.text)} ${cites(f.citations)}</p>` +
    `<p class="confidence">${confidenceText(f.confidence)}</p>${quotes.join('')}</li>`
  );
}

function disagreement(d: DocumentDisagreement): string {
  const positions = d.positions.map((p) => {
    const who = p.citation !== null ? cites([p.citation]) : escape(p.source);
    return `<li>${who}${p.stance ? ` (${escape(p.stance)})` : ''}: ${escape(p.view)}</li>`;
  });
  const touches = d.findings.map((n) => `<a href="#finding-${n}">F${n}</a>`).join(', ');
  return (
    `<li><p><strong>${escape(d.claim)}</strong></p>${d.detail ? `<p>${escape(d.detail)}</p>` : ''}` +
    `<ul>${positions.join('')}</ul>${touches ? `<p class="meta">${LABELS.touches}: ${touches}</p>` : ''}</li>`
  );
}

/** A source's URL as a link when it is a web address (never `javascript:` or another scheme), otherwise as text. */
function sourceLink(url: string): string {
  return /^https?:\/\//i.test(url) ? `<a href="${escape(url)}">${escape(url)}</a>` : escape(url);
}

function section(title: string, body: string): string {
  return `<section><h2>${title}</h2>${body}</section>`;
}

/**
 * A report as one self-contained HTML page (see ReportDocument): inline CSS, no script, nothing loaded
 * from elsewhere; every text of the run and its sources is escaped.
 */
export function renderReportHtml(doc: ReportDocument): string {
  const generated = readableTime(doc.generatedAt);
  const parts = [
    `<h1>${escape(doc.title)}</h1>`,
    `<p class="meta">${LABELS.run} ${escape(doc.researchId)}${generated ? `, ${LABELS.generated} ${generated}` : ''}</p>`,
    section(LABELS.summary, `<p>${summary(doc.summary)}</p>`),
  ];
  if (doc.findings.length > 0)
    parts.push(section(LABELS.findings, `<ol class="plain">${doc.findings.map(finding).join('')}</ol>`));
  if (doc.disagreements.length > 0)
    parts.push(section(LABELS.disagreements, `<ul>${doc.disagreements.map(disagreement).join('')}</ul>`));
  if (doc.uncertainties.length > 0)
    parts.push(
      section(LABELS.uncertainties, `<ul>${doc.uncertainties.map((u) => `<li>${escape(u)}</li>`).join('')}</ul>`),
    );
  if (doc.methodology) parts.push(section(LABELS.methodology, `<p>${escape(doc.methodology)}</p>`));
  if (doc.sources.length > 0) {
    const items = doc.sources.map(
      (s) =>
        `<li id="source-${s.number}">[${s.number}] ${escape(s.title ?? LABELS.untitled)}, ${sourceLink(s.url)}, ` +
        `<span class="meta">${LABELS.retrieved} ${readableTime(s.retrievedAt)}</span></li>`,
    );
    parts.push(section(LABELS.sources, `<ol class="plain sources">${items.join('')}</ol>`));
  }
  return (
    `<!DOCTYPE html>\n<html lang="und"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escape(doc.title)}</title><style>${STYLE}</style></head>\n<body>${parts.join('\n')}</body></html>\n`
  );
}

/** The Content-Security-Policy the page is served with (the same as its own meta element). */
export const REPORT_HTML_CSP = CSP;
