import type { ReportDocument } from '../api/report-types';

// A report document as GET /v1/research/{id}/report/document answers it, for the component tests.

/** The source text the quote stands in: astral characters and a combining accent come before it. */
export const SOURCE_TEXT =
  'Bilanz 😀 2024 🇩🇪: Die Erzeugung stieg. Solar lieferte 14 % des Stroms. Wind mehr.\n'.repeat(3);
export const QUOTE = 'Solar lieferte 14 % des Stroms.';
export const QUOTE_START = Array.from(SOURCE_TEXT.slice(0, SOURCE_TEXT.indexOf(QUOTE))).length;
export const QUOTE_END = QUOTE_START + Array.from(QUOTE).length;

const evidence = {
  evidence_type: 'primary_report',
  source_independence_score: 0.8,
  primary_source_proximity: 1,
  cross_source_support: 0.5,
  contradiction_level: 0.25,
  evidence_directness: 0.9,
  date_relevance_score: 0.75,
};

export function reportDocument(sha: string): ReportDocument {
  return {
    research_id: 'run-1',
    query: 'Wie viel Strom liefert Solar?',
    state: 'completed',
    summary: ['Solar lieferte 2024 rund 14 % des Stroms ', { finding: 1 }, '.'],
    findings: [
      {
        number: 1,
        text: 'Solar lieferte 2024 rund 14 % des Stroms.',
        confidence: 0.834,
        citations: [1, 2],
        quotes: [
          {
            citation: 1,
            text: QUOTE,
            claim_id: 'c1',
            source_id: 's1',
            span_start: QUOTE_START,
            span_end: QUOTE_END,
            claim_text: 'Solar lieferte 14 % des Stroms.',
            claim_type: 'fact',
            evidence,
          },
        ],
      },
    ],
    disagreements: [
      {
        claim: 'Anteil von Solar',
        detail: 'Die Quellen nennen verschiedene Anteile.',
        findings: [1],
        positions: [
          { view: '14 %', citation: 1, source: 'Statistik', stance: 'supports', source_id: 's1' },
          { view: '11 %', citation: 2, source: 'Blog', stance: 'refutes', source_id: 's2' },
        ],
      },
    ],
    uncertainties: ['Only two sources.'],
    methodology: 'Searched and read.',
    generated_at: '2026-01-01T10:00:00.000Z',
    sources: [
      {
        number: 1,
        source_id: 's1',
        title: 'Statistik 2024',
        url: 'https://stat.example/solar',
        domain: 'stat.example',
        source_type: 'government',
        retrieved_at: '2026-01-01T09:00:00.000Z',
        content_sha256: sha,
        evidence_type: 'primary_report',
        independence: 0.8,
        claim_count: 3,
      },
      {
        number: 2,
        source_id: 's2',
        title: 'Ein Blog',
        url: 'https://blog.example/p',
        domain: 'blog.example',
        source_type: 'blog',
        retrieved_at: '2026-01-01T09:00:00.000Z',
        content_sha256: null,
        evidence_type: 'secondary_report',
        independence: 0.4,
        claim_count: 1,
      },
      {
        number: null,
        source_id: 's3',
        title: null,
        url: 'https://other.example/',
        domain: 'other.example',
        source_type: 'other',
        retrieved_at: '2026-01-01T09:00:00.000Z',
        content_sha256: null,
        evidence_type: null,
        independence: null,
        claim_count: 0,
      },
    ],
  };
}
