import { findingCitation } from '@research/core';
import { LABELS, citationMarks, confidenceText, readableTime } from './report-labels';
import type { DocumentDisagreement, DocumentFinding, ReportDocument, SummaryPart } from '@research/runs';

/**
 * Text of a source or a run as inline Markdown: on one line, with every character that could start
 * markup backslash-escaped (CommonMark), so a page's `<script>` or `[link](javascript:…)` shows as text.
 */
function escape(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_[\]<>&|~]/g, '\\$&');
}

/** Escaped text that may begin a line: a leading `#`, `-`, `+`, `=` or `1.` would make it a heading or a list. */
function inline(text: string): string {
  return lineStart(escape(text).trim());
}

function lineStart(text: string): string {
  return text.replace(/^(#|\+|-|=)/, '\\$1').replace(/^(\d+)([.)])/, '$1\\$2');
}

/** A source's URL as an autolink when it is one, otherwise as text. */
function link(url: string): string {
  return /^https?:\/\/[^\s<>]+$/i.test(url) ? `<${url}>` : inline(url);
}

function summary(parts: readonly SummaryPart[]): string {
  return lineStart(
    parts
      .map((p) => (typeof p === 'number' ? findingCitation(p) : escape(p)))
      .join('')
      .trim(),
  );
}

function finding(f: DocumentFinding): string[] {
  const lines = [`**F${f.number}.** ${inline(f.text)} ${citationMarks(f.citations)}`.trimEnd(), ''];
  lines.push(`_${confidenceText(f.confidence)}_`, '');
  for (const quote of f.quotes) lines.push(`> "${inline(quote.text)}" [${quote.citation}]`, '');
  return lines;
}

function disagreement(d: DocumentDisagreement): string[] {
  const lines = [`**${inline(d.claim)}**`, ''];
  if (d.detail) lines.push(inline(d.detail), '');
  for (const p of d.positions) {
    const who = p.citation !== null ? `[${p.citation}]` : inline(p.source);
    lines.push(`- ${who}${p.stance ? ` (${inline(p.stance)})` : ''}: ${inline(p.view)}`);
  }
  if (d.findings.length > 0) lines.push('', `${LABELS.touches}: ${d.findings.map((n) => `F${n}`).join(', ')}`);
  lines.push('');
  return lines;
}

/** A report as one Markdown document (CommonMark): see ReportDocument. */
export function renderReportMarkdown(doc: ReportDocument): string {
  const lines = [`# ${inline(doc.title)}`, ''];
  const generated = readableTime(doc.generatedAt);
  lines.push(`_${LABELS.run} ${doc.researchId}${generated ? `, ${LABELS.generated} ${generated}` : ''}_`, '');
  lines.push(`## ${LABELS.summary}`, '', summary(doc.summary), '');
  if (doc.findings.length > 0) lines.push(`## ${LABELS.findings}`, '', ...doc.findings.flatMap(finding));
  if (doc.disagreements.length > 0)
    lines.push(`## ${LABELS.disagreements}`, '', ...doc.disagreements.flatMap(disagreement));
  if (doc.uncertainties.length > 0)
    lines.push(`## ${LABELS.uncertainties}`, '', ...doc.uncertainties.map((u) => `- ${inline(u)}`), '');
  if (doc.methodology) lines.push(`## ${LABELS.methodology}`, '', inline(doc.methodology), '');
  if (doc.sources.length > 0) {
    lines.push(`## ${LABELS.sources}`, '');
    for (const s of doc.sources)
      lines.push(
        `- [${s.number}] ${inline(s.title ?? LABELS.untitled)}, ${link(s.url)}, ${LABELS.retrieved} ${readableTime(s.retrievedAt)}`,
      );
    lines.push('');
  }
  return lines.join('\n');
}
