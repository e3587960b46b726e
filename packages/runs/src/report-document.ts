import { findingCitations, iso, normalizeWhitespace, type SlicedWork } from '@research/core';
import type { ClaimRow } from '@research/database';
import { findingEvidenceOf } from '@research/engine';
import type { SourceSummary } from './research-reads.service';

/** A run's report as GET …/report answers it (SPEC 2.6): what the document numbers and quotes. */
export interface ReportView {
  research_id: string;
  query: string;
  summary: string;
  findings: ReadonlyArray<{ text: string; confidence: number; source_ids: readonly string[] }>;
  disagreements: ReadonlyArray<Record<string, unknown>>;
  uncertainties: string[];
  methodology: string;
  generated_at: string;
}

/** A source the report cites, numbered in the order of its first citation. */
export interface CitedSource {
  number: number;
  /** The run's id of the source. */
  sourceId: string;
  title: string | null;
  url: string;
  /** When the page was fetched (ISO 8601 UTC). */
  retrievedAt: string;
}

/** What a source's claim says in the source's own words, under the finding it backs. */
export interface Quote {
  citation: number;
  text: string;
  /** The claim quoted: its span in its source's text, its own words (read by the JSON document only). */
  claim: ClaimRow;
}

export interface DocumentFinding {
  /** The finding's number in the report (1-based): the `[Fn]` of the summary. */
  number: number;
  text: string;
  confidence: number;
  citations: number[];
  quotes: Quote[];
}

export interface DocumentPosition {
  view: string;
  /** The cited source, or null when the position names a source the run does not hold. */
  citation: number | null;
  /** The position's own name for its source (shown when there is no citation). */
  source: string;
  stance: string | null;
  /** The run's id of the cited source, or null with no citation. */
  sourceId: string | null;
}

export interface DocumentDisagreement {
  claim: string;
  detail: string | null;
  positions: DocumentPosition[];
  /** Numbers of the findings it touches. */
  findings: number[];
}

/** A piece of the summary: its text, or the number of a finding it cites. */
export type SummaryPart = string | number;

/**
 * A report as every export format renders it (and GET …/report/document answers it): the JSON report
 * (SPEC 2.6, as GET …/report presents it), with each finding's and each position's sources as numbered
 * citations, the quoted evidence under each finding, and the list of cited sources. The summary's
 * citations name findings as `[Fn]` (findingCitation), because `[n]` in an export is the n-th source.
 */
export interface ReportDocument {
  researchId: string;
  title: string;
  summary: SummaryPart[];
  findings: DocumentFinding[];
  disagreements: DocumentDisagreement[];
  uncertainties: string[];
  methodology: string;
  /** ISO 8601 UTC, or empty while no report exists. */
  generatedAt: string;
  sources: CitedSource[];
}

/** Numbers sources in the order they are first cited, and lists them. */
function citationBook(sources: readonly SourceSummary[]) {
  const byId = new Map(sources.map((s) => [s.id, s]));
  const byUrl = new Map(sources.map((s) => [s.url, s]));
  const cited = new Map<string, CitedSource>();
  const cite = (source: SourceSummary | undefined): CitedSource | null => {
    if (!source) return null;
    let entry = cited.get(source.id);
    if (!entry) {
      entry = {
        number: cited.size + 1,
        sourceId: source.id,
        title: source.title,
        url: source.url,
        retrievedAt: iso(source.retrieved_at),
      };
      cited.set(source.id, entry);
    }
    return entry;
  };
  return {
    byId: (id: string) => cite(byId.get(id)),
    byUrl: (url: string) => cite(byUrl.get(url)),
    list: () => [...cited.values()],
  };
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A disagreement stored by the engine (`claim`, `detail`, `positions` with `source_id`) or by an older writer. */
function documentDisagreement(
  raw: Record<string, unknown>,
  book: ReturnType<typeof citationBook>,
  findingCount: number,
): DocumentDisagreement {
  const positions = Array.isArray(raw['positions']) ? raw['positions'] : [];
  const findings = Array.isArray(raw['findings']) ? raw['findings'] : [];
  return {
    claim: text(raw['claim']),
    detail: text(raw['detail']) || null,
    positions: positions
      .filter((p): p is Record<string, unknown> => typeof p === 'object' && p !== null)
      .map((p) => {
        const cited = book.byId(text(p['source_id'])) ?? book.byUrl(text(p['source']));
        return {
          view: text(p['view']),
          citation: cited?.number ?? null,
          source: text(p['source']),
          stance: text(p['stance']) || null,
          sourceId: cited?.sourceId ?? null,
        };
      }),
    findings: findings.filter((n): n is number => Number.isInteger(n) && n >= 1 && n <= findingCount),
  };
}

/**
 * The report as the export formats render it (see ReportDocument): `report` as GET …/report answers it,
 * the run's `sources` and `claims`. Without a stored report (`report.findings` empty and the notice in
 * the summary) the document is the notice and the defaults, as in JSON. Finding the quotes reads the
 * claims' terms, CPU work that grows with the findings: it yields after each finding (finishInSlices).
 */
export function* reportDocumentWork(
  report: ReportView,
  sources: readonly SourceSummary[],
  claims: readonly ClaimRow[],
): SlicedWork<ReportDocument> {
  const book = citationBook(sources);
  const evidenceOf = findingEvidenceOf(claims);
  const findings: DocumentFinding[] = [];
  for (const [i, finding] of report.findings.entries()) {
    const citations = [...new Set(finding.source_ids.flatMap((id) => book.byId(id)?.number ?? []))];
    const quotes = evidenceOf(finding).flatMap(({ sourceId, claim }): Quote[] => {
      const cited = book.byId(sourceId);
      // A span is the source's own text, line breaks and all: a quote reads on one line.
      const text = normalizeWhitespace(claim.evidence_span) || claim.claim_text;
      return cited ? [{ citation: cited.number, text, claim }] : [];
    });
    findings.push({ number: i + 1, text: finding.text, confidence: finding.confidence, citations, quotes });
    yield;
  }
  return {
    researchId: report.research_id,
    title: report.query,
    summary: summaryParts(report.summary, findings.length),
    findings,
    disagreements: report.disagreements.map((d) => documentDisagreement(d, book, findings.length)),
    uncertainties: report.uncertainties,
    methodology: report.methodology,
    generatedAt: report.generated_at,
    sources: book.list(),
  };
}

/**
 * The summary as text and citations of findings: the engine cites finding n as `[Fn]` (`[F1][F3]`; reports stored
 * before it as `[n]`); a bracketed number beyond the findings is the text's own and stays text.
 */
function summaryParts(summary: string, findingCount: number): SummaryPart[] {
  const parts: SummaryPart[] = [];
  let from = 0;
  for (const { number, index, length } of findingCitations(summary, { legacy: true })) {
    if (number < 1 || number > findingCount) continue;
    if (index > from) parts.push(summary.slice(from, index));
    parts.push(number);
    from = index + length;
  }
  if (from < summary.length) parts.push(summary.slice(from));
  return parts;
}
