import crypto from 'node:crypto';
import {
  insertClaims,
  insertSources,
  refreshRunCounts,
  replaceEvidence,
  upsertReport,
  type Database,
} from '@research/database';
import { insertTestRun } from './support';

// A completed run as the pipeline leaves it, read by the report's exports and by its document.

/** Hex SHA-256 of a text's UTF-8 bytes, as `content_sha256` holds it. */
export function sha256(text: string): string {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

export const QUERY = 'Wie wirkt sich Homeoffice auf die Produktivität aus?';
export const RETRIEVED = new Date(Date.UTC(2026, 10, 21, 9, 0, 0));
export const FINDING_1 = 'Homeoffice steigert die Produktivität um 13 Prozent.';
export const FINDING_2 = '<script>alert("claim")</script> Das Pendeln entfällt.';

/** A source row of a run, as the fetch step stores it. */
export function sourceRow(runId: string, i: number, source: { url: string; title: string | null; content?: string }) {
  const content = source.content ?? `extracted text ${i}`;
  return {
    id: `${runId}-src-${i}`,
    run_id: runId,
    round: 1,
    position: i,
    url: source.url,
    title: source.title,
    domain: new URL(source.url).hostname,
    source_type: 'reference',
    retrieved_at: RETRIEVED,
    content,
    content_sha256: sha256(content),
    published_at: null,
    language: 'de',
  };
}

/**
 * A claim row, as the analyze step stores it; given its source's text, with where the span stands in it
 * (code points, as the analyze step counts them).
 */
export function claimRow(
  runId: string,
  sourceId: string,
  position: number,
  claim: { text: string; span: string },
  sourceText?: string,
) {
  const at = sourceText === undefined ? -1 : sourceText.indexOf(claim.span);
  const start = at < 0 ? null : Array.from(sourceText!.slice(0, at)).length;
  return {
    id: `${sourceId}-claim-${position}`,
    run_id: runId,
    source_id: sourceId,
    round: 1,
    position,
    claim_text: claim.text,
    evidence_span: claim.span,
    claim_type: 'fact',
    confidence: 0.8,
    span_start: start,
    span_end: start === null ? null : start + Array.from(claim.span).length,
  };
}

/** An evidence score of a claim, as the compare step stores it. */
function evidenceRow(runId: string, claimId: string, primary: boolean, independence: number) {
  return {
    claim_id: claimId,
    run_id: runId,
    evidence_type: primary ? 'primary_report' : 'secondary_report',
    source_independence_score: independence,
    primary_source_proximity: primary ? 0.9 : 0.2,
    cross_source_support: 0.5,
    contradiction_level: 0.25,
    evidence_directness: 0.75,
    date_relevance_score: 1,
  };
}

/** A source's text that holds its claims' spans, after characters beyond the BMP (code points ≠ UTF-16 units). */
function textHolding(spans: string[]): string {
  return `Vorwort 🏠𝔅 über Büroarbeit.\n\n${spans.join('\nDazu: ')}\n\nEnde 🌍.`;
}

export interface CompletedRun {
  runId: string;
  urls: string[];
  /** The run's source ids, in discovery order. */
  sourceIds: [string, string, string];
}

/**
 * A completed run: three sources (one whose title holds a script) whose texts hold their claims' spans,
 * claims with their evidence spans and scores (the third source's claim unscored), and a report whose
 * findings are claims' texts with their clusters' sources and whose summary cites findings as `[n]` (see
 * the engine's report builder).
 */
export async function insertCompletedRun(db: Database, owner: string): Promise<CompletedRun> {
  const runId = await insertTestRun(db, { owner, state: 'completed', query: QUERY });
  const urls = ['https://example.org/studie?a=1&b=2', 'https://example.com/bericht', 'https://example.net/ungenutzt'];
  const ids = [0, 1, 2].map((i) => `${runId}-src-${i}`) as [string, string, string];
  const [s0, s1] = ids;
  const claims = [
    { source: 0, text: FINDING_1, span: 'Die Produktivität stieg im Homeoffice um 13 Prozent' },
    { source: 0, text: 'Die Studie lief neun Monate.', span: 'neun Monate lang' },
    {
      source: 1,
      text: 'Die Produktivität im Homeoffice steigt laut Bericht um 13 Prozent.',
      span: 'steigt die Produktivität um 13 Prozent',
    },
    { source: 1, text: FINDING_2, span: '<script>alert("span")</script> kein Pendeln mehr' },
    { source: 2, text: 'Etwas anderes.', span: 'etwas anderes' },
  ];
  const texts = [0, 1, 2].map((i) => textHolding(claims.filter((c) => c.source === i).map((c) => c.span)));
  await insertSources(db, [
    sourceRow(runId, 0, {
      url: urls[0]!,
      title: '<script>alert("title")</script> Studie zur Größe',
      content: texts[0],
    }),
    sourceRow(runId, 1, { url: urls[1]!, title: 'Bericht über Büroarbeit', content: texts[1] }),
    sourceRow(runId, 2, { url: urls[2]!, title: 'Nicht zitiert', content: texts[2] }),
  ]);
  const claimRows = claims.map((c, position) => claimRow(runId, ids[c.source]!, position, c, texts[c.source]));
  await insertClaims(db, claimRows);
  const [c0, c1, c2, c3] = claimRows.map((c) => c.id);
  await replaceEvidence(db, runId, [
    evidenceRow(runId, c0!, true, 0.9),
    evidenceRow(runId, c1!, false, 0.5),
    evidenceRow(runId, c2!, false, 0.6),
    evidenceRow(runId, c3!, false, 0.4),
  ]);
  await upsertReport(
    db,
    runId,
    {
      summary: 'Homeoffice steigert die Produktivität um 13 Prozent [1]. <script>alert("summary")</script> [2].',
      findings: [
        { text: FINDING_1, confidence: 0.72, source_ids: [s0, s1] },
        { text: FINDING_2, confidence: 0.5, source_ids: [s1] },
        // An older report may name a source twice, or one the run no longer holds.
        { text: 'Ein Befund ohne passende Aussage.', confidence: 0.3, source_ids: ['gone', s0, s0] },
      ],
      disagreements: [
        {
          claim: 'Wie stark steigt die Produktivität?',
          kind: 'number',
          detail: '13 gegenüber 2',
          positions: [
            { source: urls[0], source_id: s0, view: 'steigt um 13 Prozent', stance: 'supports' },
            { source: 'https://anderswo.example/x', view: 'sinkt um 2 Prozent', stance: 'refutes' },
          ],
          findings: [1],
        },
      ],
      uncertainties: ['Wenige Langzeitstudien.'],
      source_statistics: { total_sources: 3 },
      methodology: 'Plan, Suche, Abruf; Region: 東京 und Zürich.',
      generated_at: '2026-11-21T10:00:00.000Z',
    },
    new Date(Date.UTC(2026, 10, 21, 10, 0, 0)),
  );
  await refreshRunCounts(db, runId);
  return { runId, urls, sourceIds: ids };
}

/** The numbering a Markdown export prints: each finding's citations and quotes' citations, and the sources. */
export interface MarkdownNumbering {
  findings: Array<{ number: number; citations: number[]; quotes: number[] }>;
  /** The URL of each numbered source. */
  sources: Record<number, string>;
}

/** Reads the numbers of a Markdown export (see renderReportMarkdown's lines). */
export function markdownNumbering(markdown: string): MarkdownNumbering {
  const out: MarkdownNumbering = { findings: [], sources: {} };
  const marks = (text: string) => [...text.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1]));
  for (const line of markdown.split('\n')) {
    const finding = /^\*\*F(\d+)\.\*\* .*?((?:\[\d+\])*)$/.exec(line);
    if (finding) out.findings.push({ number: Number(finding[1]), citations: marks(finding[2]!), quotes: [] });
    const quote = /^> ".*" \[(\d+)\]$/.exec(line);
    if (quote) out.findings.at(-1)!.quotes.push(Number(quote[1]));
    const source = /^- \[(\d+)\] .*, <([^>]+)>, retrieved /.exec(line);
    if (source) out.sources[Number(source[1])] = source[2]!;
  }
  return out;
}

/** The same numbering read from GET …/report/document. */
export function documentNumbering(doc: {
  findings: Array<{ number: number; citations: number[]; quotes: Array<{ citation: number }> }>;
  sources: Array<{ number: number | null; url: string }>;
}): MarkdownNumbering {
  return {
    findings: doc.findings.map((f) => ({
      number: f.number,
      citations: f.citations,
      quotes: f.quotes.map((q) => q.citation),
    })),
    sources: Object.fromEntries(doc.sources.flatMap((s) => (s.number === null ? [] : [[s.number, s.url]]))),
  };
}

/** text[start:end] counted in code points, as a client outside JavaScript slices it. */
export function sliceCodePoints(text: string, start: number, end: number): string {
  return Array.from(text).slice(start, end).join('');
}
