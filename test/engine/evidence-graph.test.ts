import {
  MAX_COMPARED_PAIRS,
  buildEvidenceGraph,
  compareEvidence,
  detectContradiction,
  namedEntities,
  termSet,
  type ClaimInput,
  type SourceInput,
} from '@research/engine';

/**
 * What the graph compared before candidate pairs: every pair of claims of different sources, in
 * (round, position) order, with the same rules (claims naming different things apart, then the detector, then
 * Jaccard ≥ 0.5, then refinement).
 */
function allPairsRelations(claims: ClaimInput[]): Array<{ a: string; b: string; kind: string }> {
  const sorted = [...claims].sort((x, y) => x.round - y.round || x.position - y.position);
  const terms = sorted.map((c) => termSet(c.claim_text, false));
  // Claims that name different things are about different subjects: never related.
  const names = sorted.map((c) => new Set(namedEntities(c.claim_text).flatMap((n) => [...termSet(n, false)])));
  const sameSubjects = (x: Set<string>, y: Set<string>) =>
    x.size === 0 || y.size === 0 || [...x].every((t) => y.has(t)) || [...y].every((t) => x.has(t));
  const out: Array<{ a: string; b: string; kind: string }> = [];
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length; j++) {
      const [a, b, ta, tb] = [sorted[i]!, sorted[j]!, terms[i]!, terms[j]!];
      if (a.source_id === b.source_id) continue;
      const shared = [...ta].filter((t) => tb.has(t)).length;
      if (shared < 1 || !sameSubjects(names[i]!, names[j]!)) continue;
      if (detectContradiction(a.claim_text, b.claim_text)) out.push({ a: a.id, b: b.id, kind: 'contradicts' });
      else if (shared / (ta.size + tb.size - shared) >= 0.5) out.push({ a: a.id, b: b.id, kind: 'supports' });
      else if (shared / Math.min(ta.size, tb.size) >= 0.8 && shared >= 3) {
        const [general, specific] = ta.size <= tb.size ? [a, b] : [b, a];
        out.push({ a: specific.id, b: general.id, kind: 'refines' });
      }
    }
  }
  return out;
}

const SUBJECTS = [
  'Arctic sea ice extent',
  'Global mean sea level',
  'Coral reef cover in the Pacific',
  'Average surface temperature in Europe',
  'Glacier mass in the Alps',
  'Atmospheric carbon dioxide concentration',
];
/** Statements about the same few subjects that agree, refine, disagree on numbers and deny each other. */
function statement(k: number): string {
  const subject = SUBJECTS[k % SUBJECTS.length]!;
  const n = 10 + (k % 7) * 5;
  switch (k % 9) {
    case 0:
      return `${subject} rose by ${n} percent between 1990 and 2020.`;
    case 1:
      return `${subject} fell by ${n} percent between 1990 and 2020.`;
    case 2:
      return `${subject} did not change between 1990 and 2020.`;
    case 3:
      return `Scientists report that ${subject.toLowerCase()} rose by ${n} percent between 1990 and 2020 according to satellite records.`;
    case 4:
      return `${subject} is increasing every decade.`;
    case 5:
      return `${subject} is decreasing every decade.`;
    case 6:
      return `${subject} reached a record in ${1990 + (k % 30)}.`;
    case 7:
      // Shares only part of the subject: related at a low share of terms (a denial), or not at all.
      return `Researchers of the ${subject.split(' ').slice(0, 3).join(' ')} did not publish new thickness data for the northern winter season.`;
    default:
      return `${subject} rose by ${n} percent.`;
  }
}

function run(claimsCount: number, perSource: number, text: (k: number) => string) {
  const sources: SourceInput[] = [];
  const claims: ClaimInput[] = [];
  for (let k = 0; k < claimsCount; k++) {
    const s = Math.floor(k / perSource);
    if (k % perSource === 0) {
      sources.push({
        id: `s${s}`,
        url: `https://site${s}.example/page`,
        title: null,
        domain: `site${s}.example`,
        source_type: 'news',
        content: `Page ${s} of its own site.`,
        published_at: null,
      });
    }
    claims.push({
      id: `c${k}`,
      source_id: `s${s}`,
      claim_text: text(k),
      evidence_span: text(k),
      claim_type: 'fact',
      confidence: 0.7,
      round: 1 + Math.floor((3 * k) / claimsCount),
      position: k,
    });
  }
  return { claims, sources };
}

describe('evidence graph over candidate pairs', () => {
  it('relates exactly the pairs that comparing every pair relates, in the same order, on a 300-claim run', () => {
    const { claims, sources } = run(300, 10, statement);
    const expected = allPairsRelations(claims);
    // The fixture is dense on purpose: thousands of relations of every kind.
    expect(expected.length).toBeGreaterThan(5000);
    for (const kind of ['supports', 'refines', 'contradicts']) expect(expected.some((r) => r.kind === kind)).toBe(true);
    const graph = buildEvidenceGraph(claims, sources);
    expect(graph.relations.map(({ a, b, kind }) => ({ a, b, kind }))).toEqual(expected);
  });

  it(`keeps 2,000 claims that all relate within ${MAX_COMPARED_PAIRS} comparisons, and copies still cluster`, async () => {
    // 250 sources each quoting the same 8 statements: every pair of sources agrees 8 times over.
    const { claims, sources } = run(2000, 8, (k) => statement(k % 8));
    const started = process.cpuUsage();
    const { graph, evidence } = await compareEvidence({
      claims,
      sources,
      plan: null,
      referenceDate: new Date('2025-01-01'),
    });
    const { user, system } = process.cpuUsage(started);
    console.log(
      `2,000 claims (250 copies of 8): ${graph.relations.length} relations, ${graph.clusters.length} clusters, ${Math.round((user + system) / 1000)} ms CPU`,
    );
    expect(graph.relations.length).toBeLessThanOrEqual(MAX_COMPARED_PAIRS);
    expect(evidence).toHaveLength(2000);
    // Copies cluster as they do between two sources (compared exhaustively): 125 times as large.
    const two = run(16, 8, (k) => statement(k % 8));
    const sizes = (clusters: Array<{ claimIds: string[] }>) =>
      clusters.map((c) => c.claimIds.length).sort((x, y) => x - y);
    expect(sizes(graph.clusters)).toEqual(
      sizes(buildEvidenceGraph(two.claims, two.sources).clusters).map((n) => n * 125),
    );
  });

  it('keeps apart claims that name different things, and together those that name the same thing', () => {
    const texts = [
      'Madtown is a South Korean boy group formed in 2014 by J. Tune Camp.',
      'Winner is a South Korean boy group formed in 2013 by YG Entertainment.',
      'Barack Obama was born in Honolulu in 1961 and grew up in Hawaii.',
      'Obama was born in Honolulu in 1961 and grew up in Hawaii.',
    ];
    const { claims, sources } = run(texts.length, 1, (k) => texts[k]!);
    const graph = buildEvidenceGraph(claims, sources);
    const cluster = (id: string) => graph.clusterOf.get(id)!.index;
    // Two different groups: not the same proposition, and not a disagreement over years either.
    expect(cluster('c0')).not.toBe(cluster('c1'));
    expect(graph.relations.filter((r) => [r.a, r.b].includes('c0') && [r.a, r.b].includes('c1'))).toEqual([]);
    expect(cluster('c2')).toBe(cluster('c3'));
  });
});
