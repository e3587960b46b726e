import {
  buildEvidenceGraph,
  judgeStance,
  propositionOf,
  scoreEvidence,
  type ClaimInput,
  type SourceInput,
} from '@research/engine';
import { finishNow } from '@research/core';
import { claimStances } from '../../packages/engine/src/compare/stance-disputes';

// Sentences written for these tests (none taken from a data set).

function stanceOf(proposition: string, claim: string) {
  const p = propositionOf(proposition);
  if (!p) throw new Error(`no proposition in "${proposition}"`);
  return judgeStance(p, claim);
}

describe('propositionOf', () => {
  it('reads a statement as itself and a yes/no question as its statement', () => {
    expect(propositionOf('Bee populations in Europe are increasing.')?.text).toBe(
      'Bee populations in Europe are increasing.',
    );
    expect(propositionOf('Is the Arctic sea ice extent shrinking every decade?')?.text).toBe(
      'the Arctic sea ice extent shrinking every decade',
    );
  });

  it('finds no proposition in a question that asks for something, nor in a single word', () => {
    expect(propositionOf('What causes the decline of bee populations in Europe?')).toBeNull();
    expect(propositionOf('Warum sinkt der Grundwasserspiegel in Brandenburg?')).toBeNull();
    expect(propositionOf('Bees')).toBeNull();
  });
});

describe('judgeStance', () => {
  it('supports a restatement and stays neutral on another subject', () => {
    expect(
      stanceOf(
        'Coffee raises blood pressure in adults.',
        'In adults, drinking coffee raises blood pressure for hours.',
      ),
    ).toMatchObject({ stance: 'supports' });
    expect(
      stanceOf('Coffee raises blood pressure in adults.', 'The harbour was rebuilt in stone after the fire.'),
    ).toMatchObject({ stance: 'neutral' });
  });

  it('refutes with a negation of what the proposition affirms, and the reverse', () => {
    expect(
      stanceOf('Coffee raises blood pressure in adults.', 'Coffee does not raise blood pressure in healthy adults.'),
    ).toMatchObject({ stance: 'refutes', cue: 'negation' });
    expect(
      stanceOf(
        'The old bridge was never closed for repairs in winter.',
        'The old bridge was closed for repairs in the winter of 1998.',
      ),
    ).toMatchObject({ stance: 'refutes', cue: 'negation' });
    // A denied piece of evidence denies its clause.
    expect(
      stanceOf(
        'Road salt damages the roots of street trees.',
        'There is no clear evidence that road salt damages the roots of street trees.',
      ),
    ).toMatchObject({ stance: 'refutes', cue: 'negation' });
  });

  it('does not take a negation elsewhere in the claim for a denial', () => {
    expect(
      stanceOf(
        'Coffee raises blood pressure in adults.',
        'Coffee raises blood pressure in adults, although the study did not measure sleep.',
      ),
    ).toMatchObject({ stance: 'supports' });
    // The subject alone, under a negated proposition, is not what it denies.
    expect(
      stanceOf(
        'The city council did not approve the new tram line.',
        'The new tram line crosses the city from north to south.',
      ).stance,
    ).not.toBe('refutes');
  });

  it('refutes with the opposite direction of change for the same subject', () => {
    expect(
      stanceOf('Bee populations in Europe are increasing.', 'Bee populations across Europe have declined sharply.'),
    ).toMatchObject({ stance: 'refutes', cue: 'direction' });
    // Both name the same change: no opposite direction.
    expect(
      stanceOf('Sea level rise is accelerating.', 'Sea level rise has been measured by satellites since 1993.').stance,
    ).toBe('supports');
  });

  it('refutes with a different quantity of the same thing, across units', () => {
    expect(
      stanceOf('The radio tower is about 300 metres tall.', 'The radio tower is only 120 feet tall.'),
    ).toMatchObject({ stance: 'refutes', cue: 'numeric' });
    expect(
      stanceOf('The radio tower is about 300 metres tall.', 'The radio tower stands 985 feet tall.'),
    ).toMatchObject({ stance: 'supports' });
    // Ranges and bounds: "between 250 and 320 m" agrees with 300 m.
    expect(
      stanceOf(
        'The radio tower is about 300 metres tall.',
        'Estimates put the radio tower between 250 and 320 m tall.',
      ),
    ).toMatchObject({ stance: 'supports' });
    // A bare "degrees" is on the scale the text named, and a unit word says what a number counts, not
    // what it is about: the lake's forecast warming agrees, in Fahrenheit, with "six degrees or more".
    const lake =
      'The lake warmed by two degrees Fahrenheit (one degree Celsius) since 1950, and models forecast a warming of six degrees or more.';
    expect(
      stanceOf(lake, 'Models forecast that the lake will warm by seven degrees Fahrenheit (3.9 degrees Celsius).'),
    ).toMatchObject({ stance: 'supports' });
    expect(stanceOf(lake, 'Models forecast that the lake will warm by one degree Fahrenheit at most.')).toMatchObject({
      stance: 'refutes',
      cue: 'numeric',
    });
  });

  it('refutes with another year for the same record', () => {
    expect(
      stanceOf('The hottest summer in the city was in 2003.', 'The city recorded its hottest summer in 1976.'),
    ).toMatchObject({ stance: 'refutes', cue: 'date' });
  });

  it('refutes with an opposite word said of the same subject (WordNet antonyms)', () => {
    expect(
      stanceOf(
        'The new vaccine is safe for young children.',
        'Regulators judged the new vaccine dangerous for young children.',
      ),
    ).toMatchObject({ stance: 'refutes', cue: 'opposite_verdict' });
  });
});

function claim(id: string, sourceId: string, text: string, position: number): ClaimInput {
  return {
    id,
    source_id: sourceId,
    claim_text: text,
    evidence_span: text,
    claim_type: 'fact',
    confidence: 0.8,
    round: 1,
    position,
  };
}

function source(id: string, url: string, content: string): SourceInput {
  return {
    id,
    url,
    title: null,
    domain: new URL(url).hostname,
    source_type: 'other',
    content,
    published_at: null,
  };
}

const QUESTION = 'Are bee populations in Europe increasing?';
const SUPPORTING = 'Bee populations in Europe are increasing again, beekeepers report.';
const ALSO_SUPPORTING = 'Surveys count more bee colonies in Europe each year: the populations are increasing.';
const REFUTING = 'Bee populations across Europe have declined sharply over the last decade.';

describe('disputes over the question in the evidence graph', () => {
  const sources = [
    source('s1', 'https://bees.example.org/a', `${SUPPORTING} Honey prices fell.`),
    source('s2', 'https://insects.example.net/b', `${REFUTING} Pesticides are one cause.`),
    source('s3', 'https://farming.example.com/c', `${ALSO_SUPPORTING} Orchards benefit.`),
    source('s4', 'https://bees.example.org/d', `Keepers write: ${REFUTING}`),
  ];

  it('sets a refuting claim against a supporting claim of another source, and scores both sides', () => {
    const claims = [claim('c1', 's1', SUPPORTING, 0), claim('c2', 's2', REFUTING, 1)];
    const graph = buildEvidenceGraph(claims, sources.slice(0, 2), { question: QUESTION });
    expect(graph.stances?.judgements.get('c1')?.stance).toBe('supports');
    expect(graph.stances?.judgements.get('c2')).toMatchObject({ stance: 'refutes', cue: 'direction' });
    expect(graph.contradictions).toEqual([
      expect.objectContaining({
        claimA: 'c1',
        claimB: 'c2',
        contradiction: expect.objectContaining({ proposition: 'bee populations in Europe increasing' }),
      }),
    ]);
    const evidence = scoreEvidence(
      { claims, sources: sources.slice(0, 2), timeSensitivity: 'none', referenceDate: new Date('2026-01-01') },
      graph,
    );
    expect(evidence.map((e) => e.contradiction_level)).toEqual([0.5, 0.5]);
  });

  it('weighs the sides: one refutation against two independent supports', () => {
    const claims = [
      claim('c1', 's1', SUPPORTING, 0),
      claim('c2', 's2', REFUTING, 1),
      claim('c3', 's3', ALSO_SUPPORTING, 2),
    ];
    const graph = buildEvidenceGraph(claims, sources.slice(0, 3), { question: QUESTION });
    const evidence = scoreEvidence(
      { claims, sources: sources.slice(0, 3), timeSensitivity: 'none', referenceDate: new Date('2026-01-01') },
      graph,
    );
    const level = new Map(evidence.map((e) => [e.claim_id, e.contradiction_level]));
    expect(level.get('c2')).toBe(0.67);
    expect(level.get('c1')).toBe(0.33);
    expect(level.get('c3')).toBe(0.33);
  });

  it('does not set a source against its own domain, and judges nothing without a question that proposes', () => {
    const claims = [claim('c1', 's1', SUPPORTING, 0), claim('c4', 's4', REFUTING, 1)];
    const sameDomain = [sources[0]!, sources[3]!];
    expect(buildEvidenceGraph(claims, sameDomain, { question: QUESTION }).contradictions).toEqual([]);
    const other = [claim('c1', 's1', SUPPORTING, 0), claim('c2', 's2', REFUTING, 1)];
    const asking = buildEvidenceGraph(other, sources.slice(0, 2), { question: 'Why are bees in Europe declining?' });
    expect(asking.stances).toBeNull();
    expect(asking.contradictions).toEqual([]);
  });

  it("takes the stance the model gave a claim over the words' reading", () => {
    // The words read this claim as neutral (too few shared terms); the model read it as refuting.
    const shrinking = 'Beekeepers across Europe report that their colonies are shrinking year after year.';
    const claims = [claim('c1', 's1', SUPPORTING, 0), { ...claim('c2', 's2', shrinking, 1), stance: 'refutes' }];
    const graph = buildEvidenceGraph(claims, sources.slice(0, 2), { question: QUESTION });
    expect(graph.stances?.judgements.get('c1')?.stance).toBe('supports');
    expect(graph.stances?.judgements.get('c2')).toMatchObject({ stance: 'refutes', cue: 'stance' });
    expect(graph.contradictions).toEqual([
      expect.objectContaining({
        claimA: 'c1',
        claimB: 'c2',
        contradiction: { kind: 'stance', detail: '', proposition: 'bee populations in Europe increasing' },
      }),
    ]);
    const evidence = scoreEvidence(
      { claims, sources: sources.slice(0, 2), timeSensitivity: 'none', referenceDate: new Date('2026-01-01') },
      graph,
    );
    expect(evidence.map((e) => e.contradiction_level)).toEqual([0.5, 0.5]);

    // A model's refutation the words show too keeps their cue; a model that reads no stance overrides them.
    const direction = buildEvidenceGraph(
      [claim('c1', 's1', SUPPORTING, 0), { ...claim('c2', 's2', REFUTING, 1), stance: 'refutes' }],
      sources.slice(0, 2),
      { question: QUESTION },
    );
    expect(direction.stances?.judgements.get('c2')).toMatchObject({ stance: 'refutes', cue: 'direction' });
    const neutral = buildEvidenceGraph(
      [claim('c1', 's1', SUPPORTING, 0), { ...claim('c2', 's2', REFUTING, 1), stance: 'neutral' }],
      sources.slice(0, 2),
      { question: QUESTION },
    );
    expect(neutral.stances?.judgements.has('c2')).toBe(false);
    expect(neutral.contradictions).toEqual([]);
  });

  it("lets the model's stances dispute a question the words read no proposition in", () => {
    const asking = 'What is happening to bee populations in Europe?';
    const claims = [
      { ...claim('c1', 's1', SUPPORTING, 0), stance: 'supports' },
      { ...claim('c2', 's2', REFUTING, 1), stance: 'refutes' },
    ];
    const graph = buildEvidenceGraph(claims, sources.slice(0, 2), { question: asking });
    expect(graph.stances?.proposition).toBe(asking);
    expect(graph.contradictions).toEqual([
      expect.objectContaining({
        claimA: 'c1',
        claimB: 'c2',
        contradiction: expect.objectContaining({ kind: 'stance' }),
      }),
    ]);
  });

  it('judges the stances of 1,000 claims in slices of at most 32 claims, with the answer of one pass', () => {
    const many = Array.from({ length: 1000 }, (_, i) =>
      claim(`m${i}`, `h${i % 50}`, i % 7 === 0 ? REFUTING : `${SUPPORTING} Colony ${i} was counted.`, i),
    );
    // Each claim's text read between two of the work's yields is a claim judged in one turn of the event
    // loop: counted, not timed, so a crowded machine cannot fail it and a loop that stops yielding does.
    let judgedInSlice = 0;
    const counted = many.map((c) => {
      const text = c.claim_text;
      return {
        ...c,
        get claim_text() {
          judgedInSlice++;
          return text;
        },
      };
    });
    const work = claimStances(counted, QUESTION);
    let longestSlice = 0;
    let slices = 0;
    let step = work.next();
    for (; !step.done; step = work.next()) {
      longestSlice = Math.max(longestSlice, judgedInSlice);
      judgedInSlice = 0;
      slices++;
    }
    longestSlice = Math.max(longestSlice, judgedInSlice);
    expect(longestSlice).toBeLessThanOrEqual(32);
    expect(slices).toBeGreaterThanOrEqual(1000 / 32 - 1);
    expect(step.value?.judgements.size).toBe(1000);
    expect(step.value).toEqual(finishNow(claimStances(many, QUESTION)));
  });
});
