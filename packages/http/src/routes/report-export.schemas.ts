import { z } from 'zod';
import { EVIDENCE_TYPES } from '@research/core';
import { EXPORT_FORMATS } from '../presenters/report-export/report-formats';
import { isoTimestamp } from './common.schemas';
import { contentSha256Field, evidenceScoreSchema, researchId, runState, spanOffset } from './research.schemas';

/** The formats of a report: SPEC 4.8's JSON and the exports. */
export const REPORT_FORMATS = ['json', ...EXPORT_FORMATS] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** GET /v1/research/{id}/report query string (other parameters are ignored, as before the exports). */
export const reportQuerySchema = z.object({
  format: z
    .enum(REPORT_FORMATS, { error: `must be one of ${REPORT_FORMATS.join(', ')}` })
    .optional()
    .meta({
      description:
        'The report as `json` (SPEC 4.8, the default), `markdown`, `html` (one self-contained page) or `pdf`. ' +
        'Without it, `Accept: text/markdown`, `text/html` or `application/pdf` chooses; with it, `format` wins.',
    }),
});

// ---- GET /v1/research/{id}/report/document ---------------------------------------------------------

/** A 1-based number: of a source (its citation) or of a finding. */
const ordinal = z.number().int().min(1);
const score = z.number().min(0).max(1);

const quoteSchema = z
  .object({
    citation: ordinal.meta({ description: 'The number of the source quoted, as the exports print it.' }),
    text: z.string().meta({ description: 'The quote as the exports print it: the span on one line.' }),
    claim_id: z.string(),
    source_id: z.string(),
    span_start: spanOffset("Where the claim's evidence_span starts in the source's text (code points from 0)."),
    span_end: spanOffset('Where it ends (code points, exclusive).'),
    claim_text: z.string(),
    claim_type: z.string(),
    evidence: evidenceScoreSchema
      .omit({ claim_id: true, research_run_id: true })
      .nullable()
      .meta({ description: "The claim's evidence scores (GET …/evidence), or null when it has none." }),
  })
  .meta({ id: 'ReportDocumentQuote' });

const documentFindingSchema = z
  .object({
    number: ordinal.meta({ description: 'The finding n that the summary cites as `{"finding": n}`.' }),
    text: z.string(),
    confidence: z.number(),
    citations: z.array(ordinal).meta({ description: "Numbers of the finding's sources, in its order." }),
    quotes: z.array(quoteSchema).meta({
      description: 'For each cited source that states the finding, the passage of its claim (at most one per source).',
    }),
  })
  .meta({ id: 'ReportDocumentFinding' });

const documentDisagreementSchema = z
  .object({
    claim: z.string(),
    detail: z.string().nullable(),
    findings: z.array(ordinal).meta({ description: 'Numbers of the findings it touches.' }),
    positions: z.array(
      z.object({
        view: z.string(),
        citation: ordinal.nullable().meta({ description: 'The source cited, or null when the run does not hold it.' }),
        source: z.string().meta({ description: "The position's own name for its source (a URL)." }),
        stance: z.string().nullable(),
        source_id: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'ReportDocumentDisagreement' });

const documentSourceSchema = z
  .object({
    number: ordinal
      .nullable()
      .meta({ description: 'Its citation number, or null for a source the report does not cite.' }),
    source_id: z.string(),
    title: z.string().nullable(),
    url: z.string(),
    domain: z.string(),
    source_type: z.string().nullable(),
    retrieved_at: isoTimestamp('When the source was fetched (ISO 8601 UTC).'),
    content_sha256: contentSha256Field,
    evidence_type: z.enum(EVIDENCE_TYPES).nullable().meta({
      description: '`primary_report` when any of its claims is reported first-hand; null with no scored claim.',
    }),
    independence: score
      .nullable()
      .meta({ description: 'Mean source_independence_score of its claims; null with no scored claim.' }),
    claim_count: z.number().int().min(0),
  })
  .meta({ id: 'ReportDocumentSource' });

/** The report as the exports number it, with what a reader needs to check each quote in its source. */
export const reportDocumentResponseSchema = z
  .object({
    research_id: researchId,
    query: z.string(),
    state: runState.meta({ description: "The run's state: the report is final once the run has ended." }),
    summary: z.array(z.union([z.string(), z.object({ finding: ordinal })])).meta({
      description: "The summary as text and citations of findings; before a report exists, SPEC's notice.",
    }),
    findings: z.array(documentFindingSchema),
    disagreements: z.array(documentDisagreementSchema),
    uncertainties: z.array(z.string()),
    methodology: z.string(),
    generated_at: z.string().meta({ description: 'ISO 8601 UTC, or empty while no report exists.' }),
    sources: z.array(documentSourceSchema).meta({
      description: 'Every source of the run: the cited ones by number, then the others in discovery order.',
    }),
  })
  .meta({
    id: 'ReportDocumentResponse',
    example: {
      research_id: '0d9c1a52-6a0e-4c1e-9f1b-3f2a8d4c5e61',
      query: 'Wie wirkt sich Homeoffice auf die Produktivität aus?',
      state: 'completed',
      summary: ['Die Produktivität steigt leicht ', { finding: 1 }, '.'],
      findings: [
        {
          number: 1,
          text: 'Produktivität steigt in mehreren Studien leicht.',
          confidence: 0.72,
          citations: [1],
          quotes: [
            {
              citation: 1,
              text: 'Die Produktivität stieg leicht',
              claim_id: 'claim-1',
              source_id: 'src-1',
              span_start: 120,
              span_end: 150,
              claim_text: 'Produktivität steigt in mehreren Studien leicht.',
              claim_type: 'fact',
              evidence: {
                evidence_type: 'secondary_report',
                source_independence_score: 0.8,
                primary_source_proximity: 0.4,
                cross_source_support: 0.5,
                contradiction_level: 0,
                evidence_directness: 0.7,
                date_relevance_score: 0.9,
              },
            },
          ],
        },
      ],
      disagreements: [],
      uncertainties: ['Wenige Langzeitstudien.'],
      methodology: 'Plan, Suche, Abruf, Extraktion, Vergleich, Synthese.',
      generated_at: '2026-11-21T09:40:00.000Z',
      sources: [
        {
          number: 1,
          source_id: 'src-1',
          title: 'Telearbeit',
          url: 'https://de.wikipedia.org/wiki/Telearbeit',
          domain: 'de.wikipedia.org',
          source_type: 'reference',
          retrieved_at: '2026-11-21T09:31:10.000Z',
          content_sha256: '9f2c4e0b6a1d8f37c5e2b9a04d6f1c83e7a5b2d09c4f6e18a3b7d5c2e9f0a1b4',
          evidence_type: 'secondary_report',
          independence: 0.8,
          claim_count: 4,
        },
      ],
    },
  });
export type ReportDocumentResponse = z.infer<typeof reportDocumentResponseSchema>;
