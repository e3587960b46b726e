import { findingEvidenceOf, rankFindings } from '@research/engine';
import { graphOf } from './engine-support';

const QUERY = 'How does remote work affect productivity of software teams?';

/** Pages of one question: three say the proposition each in its own words, among other sentences. */
const PAGES = [
  [
    'Remote work raised the productivity of software teams by 13 percent in a two-year study.',
    'The study followed 250 engineers at a travel agency.',
  ],
  [
    'A two-year study found remote work raised productivity of software teams by 13 percent.',
    'Commuting time fell by an hour a day for the engineers.',
  ],
  [
    'Software teams working remotely saw productivity rise by 13 percent over two years, the study found.',
    'Office rents in the city fell in the same period.',
  ],
  [
    'Remote software teams reported more meetings and lower productivity of code reviews.',
    'Code review latency doubled for remote software teams in the survey.',
  ],
].map((sentences, i) => ({ title: `Remote work and productivity ${i}`, sentences }));

describe('findingEvidenceOf', () => {
  it("finds, for each source of a finding the report builder made, a claim of the finding's own cluster", async () => {
    const graph = graphOf(PAGES);
    const ranked = await rankFindings({ query: QUERY, plan: null, graph, evidence: [] });
    const evidenceOf = findingEvidenceOf(graph.claims);
    const multiSource = ranked.filter((r) => r.finding.source_ids.length > 1);
    expect(multiSource.length).toBeGreaterThan(0);
    for (const { finding, cluster } of ranked) {
      const evidence = evidenceOf(finding);
      expect(evidence.map((e) => e.sourceId)).toEqual(finding.source_ids);
      for (const { claim } of evidence) expect(cluster.claimIds).toContain(claim.id);
      // The claim whose text the finding is comes from its own source.
      expect(evidence.some((e) => e.claim.claim_text === finding.text)).toBe(true);
    }
  });

  it('matches a restated finding, and gives nothing for a source without a claim like it', () => {
    const evidenceOf = findingEvidenceOf(graphOf(PAGES).claims);
    const restated = {
      text: 'In a two-year study, remote work raised software teams’ productivity by 13 percent.',
      source_ids: ['s0', 's1', 's3', 'unknown'],
    };
    expect(evidenceOf(restated).map((e) => e.claim.id)).toEqual(['c0-0', 'c1-0']);
  });
});
