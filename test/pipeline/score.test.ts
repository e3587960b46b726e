import type { ClaimRow, RunRow, SourceRow } from '@research/database';
import { evidenceGraphOf } from '@research/engine';
import { scoreClaims } from '@research/pipeline';

// Scoring, apart from comparing: one evidence score per claim from the graph the compare step built.
const source = (id: string, domain: string) =>
  ({
    id,
    url: `https://${domain}/story`,
    title: null,
    domain,
    source_type: 'news',
    content: `A report of ${domain}.`,
    published_at: null,
  }) as unknown as SourceRow;
const claim = (id: string, sourceId: string, text: string, position: number) =>
  ({
    id,
    source_id: sourceId,
    claim_text: text,
    evidence_span: text,
    claim_type: 'fact',
    confidence: 0.8,
    round: 1,
    position,
  }) as unknown as ClaimRow;

describe('scoring the claims of a run', () => {
  const sources = [source('s1', 'alpha.example'), source('s2', 'beta.example'), source('s3', 'gamma.example')];
  const claims = [
    claim('agreed-1', 's1', 'The bridge opened to traffic in 1932 after six years of work.', 0),
    claim('agreed-2', 's2', 'The bridge opened to traffic in 1932 after six years of work.', 1),
    claim('alone', 's3', 'The harbour tunnel was finished in 1992 with a budget overrun.', 2),
    claim('denied', 's3', 'The bridge did not open to traffic in 1932 after six years of work.', 3),
  ];
  const run = { created_at: new Date('2025-06-01T00:00:00Z') } as RunRow;

  it('gives a claim two independent sites back more cross-source support than one no other site states', async () => {
    const snapshot = { claims, sources, plan: null };
    const graph = await evidenceGraphOf(claims, sources);
    const evidence = await scoreClaims(snapshot, { run }, graph);
    const of = (id: string) => evidence.find((e) => e.claim_id === id)!;
    expect(evidence.map((e) => e.claim_id).sort()).toEqual(['agreed-1', 'agreed-2', 'alone', 'denied']);
    expect(of('agreed-1').cross_source_support).toBeGreaterThan(of('alone').cross_source_support);
    expect(of('agreed-1').contradiction_level).toBeGreaterThan(0);
    expect(of('alone').contradiction_level).toBe(0);
  });
});
