import { evidenceScoresOf, type EvidenceType } from '@research/core';
import type { ClaimRow, EvidenceRow, VisibleRunRead } from '@research/database';
import type { ReportDocumentResponse } from '../routes/report-export.schemas';
import type { DocumentDisagreement, DocumentFinding, Quote, ReportDocument, SourceSummary } from '@research/runs';
import { iso } from '@research/core';

/** What a source's claims add up to: how its claims are reported, how independent they are, how many. */
export interface SourceEvidence {
  /** `primary_report` when any of its claims is; null when none of its claims has a score. */
  evidenceType: EvidenceType | null;
  /** Mean source_independence_score of its scored claims; null when it has none. */
  independence: number | null;
  claimCount: number;
}

const NO_EVIDENCE: SourceEvidence = { evidenceType: null, independence: null, claimCount: 0 };

/** Each source's SourceEvidence, from the run's claims and their evidence scores (one per claim). */
export function sourceEvidenceOf(
  claims: readonly Pick<ClaimRow, 'id' | 'source_id'>[],
  evidence: readonly Pick<EvidenceRow, 'claim_id' | 'evidence_type' | 'source_independence_score'>[],
): Map<string, SourceEvidence> {
  const scoreOf = new Map(evidence.map((e) => [e.claim_id, e]));
  const totals = new Map<string, { primary: boolean; scored: number; independence: number; claims: number }>();
  for (const claim of claims) {
    let total = totals.get(claim.source_id);
    if (!total) totals.set(claim.source_id, (total = { primary: false, scored: 0, independence: 0, claims: 0 }));
    total.claims += 1;
    const score = scoreOf.get(claim.id);
    if (!score) continue;
    total.scored += 1;
    total.independence += score.source_independence_score;
    total.primary ||= score.evidence_type === 'primary_report';
  }
  const out = new Map<string, SourceEvidence>();
  for (const [sourceId, t] of totals) {
    out.set(sourceId, {
      evidenceType: t.scored === 0 ? null : t.primary ? 'primary_report' : 'secondary_report',
      independence: t.scored === 0 ? null : t.independence / t.scored,
      claimCount: t.claims,
    });
  }
  return out;
}

type DocumentSources = ReportDocumentResponse['sources'];

/** Every source of the run: the cited ones in citation order with their numbers, then the others as stored. */
function documentSources(
  doc: ReportDocument,
  sources: readonly SourceSummary[],
  evidenceBySource: Map<string, SourceEvidence>,
): DocumentSources {
  const numberOf = new Map(doc.sources.map((s) => [s.sourceId, s.number]));
  const present = (s: SourceSummary): DocumentSources[number] => {
    const evidence = evidenceBySource.get(s.id) ?? NO_EVIDENCE;
    return {
      number: numberOf.get(s.id) ?? null,
      source_id: s.id,
      title: s.title,
      url: s.url,
      domain: s.domain,
      source_type: s.source_type,
      retrieved_at: iso(s.retrieved_at),
      content_sha256: s.content_sha256,
      evidence_type: evidence.evidenceType,
      independence: evidence.independence,
      claim_count: evidence.claimCount,
    };
  };
  const cited = sources.filter((s) => numberOf.has(s.id)).sort((a, b) => numberOf.get(a.id)! - numberOf.get(b.id)!);
  return [...cited.map(present), ...sources.filter((s) => !numberOf.has(s.id)).map(present)];
}

function presentQuote(quote: Quote, scoreOf: Map<string, EvidenceRow>) {
  const { claim } = quote;
  const score = scoreOf.get(claim.id);
  return {
    citation: quote.citation,
    text: quote.text,
    claim_id: claim.id,
    source_id: claim.source_id,
    span_start: claim.span_start,
    span_end: claim.span_end,
    claim_text: claim.claim_text,
    claim_type: claim.claim_type,
    evidence: score ? { evidence_type: score.evidence_type, ...evidenceScoresOf(score) } : null,
  };
}

function presentFinding(f: DocumentFinding, scoreOf: Map<string, EvidenceRow>) {
  return {
    number: f.number,
    text: f.text,
    confidence: f.confidence,
    citations: f.citations,
    quotes: f.quotes.map((q) => presentQuote(q, scoreOf)),
  };
}

function presentDisagreement(d: DocumentDisagreement) {
  return {
    claim: d.claim,
    detail: d.detail,
    findings: d.findings,
    positions: d.positions.map((p) => ({
      view: p.view,
      citation: p.citation,
      source: p.source,
      stance: p.stance,
      source_id: p.sourceId,
    })),
  };
}

/**
 * GET /v1/research/{id}/report/document: the report as the exports number it (`doc`), with the run's
 * state, each quote's claim, span and evidence scores, and every source of the run with its evidence.
 */
export function presentReportDocument(
  run: VisibleRunRead,
  doc: ReportDocument,
  results: { sources: readonly SourceSummary[]; claims: readonly ClaimRow[]; evidence: readonly EvidenceRow[] },
): ReportDocumentResponse {
  const scoreOf = new Map(results.evidence.map((e) => [e.claim_id, e]));
  return {
    research_id: doc.researchId,
    query: doc.title,
    state: run.state,
    summary: doc.summary.map((part) => (typeof part === 'number' ? { finding: part } : part)),
    findings: doc.findings.map((f) => presentFinding(f, scoreOf)),
    disagreements: doc.disagreements.map(presentDisagreement),
    uncertainties: doc.uncertainties,
    methodology: doc.methodology,
    generated_at: doc.generatedAt,
    sources: documentSources(doc, results.sources, sourceEvidenceOf(results.claims, results.evidence)),
  };
}
