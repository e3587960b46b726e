import { buildEvidenceGraph, graphFromStored, graphInputsKey, storedGraphOf, type ClaimInput } from '@research/engine';
import { graphInputsOf, STANCE_QUERY, STANCE_REFUTING } from './engine-support';

// The compare step's graph is stored as JSON with the run and read back by the steps and routes after it: read
// back, it must be the graph a fresh comparison builds, and a graph over other claims or another question must
// not be read at all.

const SEA_LEVEL = 'Global mean sea level rose by 20 centimetres between 1901 and 2018, tide gauges show.';
const PAGES: Array<{ domain: string; sentences: string[] }> = [
  { domain: 'ice.example', sentences: ['The Arctic sea ice extent is shrinking every decade, satellites show.'] },
  { domain: 'skeptic.example', sentences: [STANCE_REFUTING] },
  { domain: 'ocean.example', sentences: [SEA_LEVEL, 'Tide gauges measure the sea level at the coast.'] },
  { domain: 'other.example', sentences: ['Global mean sea level rose by 35 centimetres between 1901 and 2018.'] },
  // A copy of the ocean page on another site: not an independent source.
  { domain: 'copies.example', sentences: [SEA_LEVEL, 'Tide gauges measure the sea level at the coast.'] },
  { domain: 'ocean.example', sentences: ['Global mean sea level rose between 1901 and 2018.'] },
  // What the ocean page says of tide gauges, said in more detail.
  {
    domain: 'gauges.example',
    sentences: ['Tide gauges along the northern coast measure the sea level every hour with floats and radar sensors.'],
  },
];

const { claims, sources } = graphInputsOf(PAGES.map((page, i) => ({ ...page, title: `Page ${i}` })));

/** The graph as the database hands it back: through JSON. */
function stored(question: string | null) {
  const graph = buildEvidenceGraph(claims, sources, question === null ? {} : { question });
  const json = storedGraphOf(graph, question);
  return JSON.parse(JSON.stringify(json)) as typeof json;
}

describe('a stored evidence graph', () => {
  it('reads back as the graph a fresh comparison builds, contradictions, copies and stances included', () => {
    const fresh = buildEvidenceGraph(claims, sources, { question: STANCE_QUERY });
    // The case is worth the test only when every part of the graph has something in it.
    expect(fresh.contradictions.length).toBeGreaterThanOrEqual(2);
    expect(fresh.refinements.length).toBeGreaterThan(0);
    expect(fresh.stances?.judgements.size).toBeGreaterThanOrEqual(2);
    expect(new Set(fresh.groupOf.values()).size).toBeLessThan(sources.length);

    // Keyed by what it read: the same key as the claims and sources given in any order.
    expect(stored(STANCE_QUERY).inputs).toBe(graphInputsKey([...claims].reverse(), sources));
    const read = graphFromStored(stored(STANCE_QUERY), claims, sources, { question: STANCE_QUERY });
    expect(read).toEqual(fresh);
    // Maps iterate as a fresh graph's do, and a contradiction's clusters are the graph's own objects.
    expect([...read!.clusterOf.keys()]).toEqual([...fresh.clusterOf.keys()]);
    expect([...read!.groupOf.keys()]).toEqual([...fresh.groupOf.keys()]);
    expect(read!.contradictions.every((c) => read!.clusters.includes(c.a) && read!.clusters.includes(c.b))).toBe(true);
  });

  it('is the same graph whatever order the claims and sources are read in', () => {
    const read = graphFromStored(stored(STANCE_QUERY), [...claims].reverse(), [...sources].reverse(), {
      question: STANCE_QUERY,
    });
    expect(read?.clusters).toEqual(buildEvidenceGraph(claims, sources, { question: STANCE_QUERY }).clusters);
  });

  it('is not read over other claims or sources, or for another question', () => {
    const graph = stored(STANCE_QUERY);
    const added: ClaimInput = { ...claims[0]!, id: 'c-new', position: 9, claim_text: 'Sea ice melts in summer.' };
    expect(graphFromStored(graph, [...claims, added], sources, { question: STANCE_QUERY })).toBeNull();
    expect(graphFromStored(graph, claims.slice(1), sources, { question: STANCE_QUERY })).toBeNull();
    expect(graphFromStored(graph, claims, sources.slice(0, -1), { question: STANCE_QUERY })).toBeNull();
    expect(graphFromStored(graph, claims, sources, { question: 'Is the sea level rising?' })).toBeNull();
    expect(graphFromStored(stored(null), claims, sources, { question: STANCE_QUERY })).toBeNull();
    expect(graphFromStored(null, claims, sources)).toBeNull();
  });

  it('gives its clusters and relations to a reader that asks for no question (they do not depend on one)', () => {
    const read = graphFromStored(stored(STANCE_QUERY), claims, sources);
    const plain = buildEvidenceGraph(claims, sources);
    expect(read?.clusters).toEqual(plain.clusters);
    expect(read?.relations).toEqual(plain.relations);
  });
});
