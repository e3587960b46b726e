import { finishInSlices } from '@research/core';
import type { ClaimRow } from '@research/database';
import { reportDocumentWork, type ReportView, type SourceSummary } from '@research/runs';

// The citation model every export renders (and GET …/report/document answers), built without HTTP.

const source = (id: string, url: string): SourceSummary => ({
  id,
  url,
  title: `Title of ${id}`,
  domain: new URL(url).hostname,
  source_type: 'news',
  retrieved_at: new Date('2026-11-21T09:00:00Z'),
  content_sha256: null,
});

const claim = (id: string, sourceId: string, text: string, span = text): ClaimRow => ({
  id,
  run_id: 'run',
  source_id: sourceId,
  round: 1,
  position: 0,
  claim_text: text,
  evidence_span: span,
  claim_type: 'fact',
  confidence: 0.8,
  stance: null,
  span_start: null,
  span_end: null,
});

const report: ReportView = {
  research_id: 'run',
  query: 'Who first sighted New Zealand?',
  summary: 'Abel Tasman sighted it in 1642 [F1]. The date is disputed [F2][F9].',
  findings: [
    { text: 'Abel Tasman sighted New Zealand in 1642.', confidence: 0.58, source_ids: ['b', 'a'] },
    { text: 'Some accounts date the sighting to 1643.', confidence: 0.3, source_ids: ['a', 'missing'] },
  ],
  disagreements: [
    {
      claim: 'The year of the sighting',
      positions: [
        { view: '1642', source_id: 'b', source: 'https://b.example/' },
        { view: '1643', source: 'https://elsewhere.example/' },
      ],
      findings: [1, 2, 7],
    },
  ],
  uncertainties: [],
  methodology: '',
  generated_at: '2026-11-21T09:05:00.000Z',
};

describe('reportDocumentWork', () => {
  const sources = [source('a', 'https://a.example/'), source('b', 'https://b.example/')];
  const claims = [
    claim('c1', 'b', 'Abel Tasman sighted New Zealand in 1642.', 'Abel Tasman\nsighted New Zealand in 1642.'),
    claim('c2', 'a', 'Tasman sighted New Zealand in 1642, the log says.'),
    claim('c3', 'a', 'Bananas are yellow.'),
  ];

  it('numbers sources by their first citation and quotes each source’s own words under a finding', async () => {
    const doc = await finishInSlices(reportDocumentWork(report, sources, claims));
    expect(doc.sources.map((s) => [s.number, s.sourceId, s.retrievedAt])).toEqual([
      [1, 'b', '2026-11-21T09:00:00.000Z'],
      [2, 'a', '2026-11-21T09:00:00.000Z'],
    ]);
    expect(doc.findings[0]).toMatchObject({ number: 1, citations: [1, 2] });
    // A span keeps its line breaks in the source; a quote reads on one line. No quote from a source's
    // unrelated claim.
    expect(doc.findings[0]?.quotes.map((q) => [q.citation, q.text])).toEqual([
      [1, 'Abel Tasman sighted New Zealand in 1642.'],
      [2, 'Tasman sighted New Zealand in 1642, the log says.'],
    ]);
    // A source id the run does not hold is no citation.
    expect(doc.findings[1]?.citations).toEqual([2]);
  });

  it('reads the summary’s [Fn] as findings and keeps a number beyond them as text', async () => {
    const doc = await finishInSlices(reportDocumentWork(report, sources, claims));
    expect(doc.summary).toEqual(['Abel Tasman sighted it in 1642 ', 1, '. The date is disputed ', 2, '[F9].']);
  });

  it('cites a position by its source id, or by its URL, and leaves a source the run does not hold uncited', async () => {
    const doc = await finishInSlices(reportDocumentWork(report, sources, claims));
    expect(doc.disagreements[0]?.positions.map((p) => [p.view, p.citation, p.sourceId])).toEqual([
      ['1642', 1, 'b'],
      ['1643', null, null],
    ]);
    expect(doc.disagreements[0]?.findings).toEqual([1, 2]);
  });
});
