import { detectContradiction } from '@research/engine';

describe('contradiction detector', () => {
  it('finds numbers that disagree on the same subject', () => {
    expect(
      detectContradiction(
        'Global mean sea level rose by 20 centimetres between 1901 and 2018.',
        'Global mean sea level rose by 35 centimetres between 1901 and 2018.',
      ),
    ).toMatchObject({ kind: 'numeric' });
    expect(
      detectContradiction(
        'Die Stadt hat 3,5 Millionen Einwohner und ist die größte des Landes.',
        'Die Stadt hat 2,1 Millionen Einwohner und ist die größte des Landes.',
      ),
    ).toMatchObject({ kind: 'numeric' });
    // Measures compare across units and within the rounding sources do: a metre figure against one in feet
    // disagrees, two round figures of one depth do not.
    expect(
      detectContradiction(
        'At the last glacial maximum the global sea level was 400 feet lower than today.',
        'At the last glacial maximum the global sea level was 40 metres lower than today.',
      ),
    ).toMatchObject({ kind: 'numeric', detail: '400 feet ≠ 40 metres' });
    expect(
      detectContradiction(
        'During the last glaciation the global sea level dropped by about 110 metres.',
        'During the last glaciation the global sea level was about 120 metres lower.',
      ),
    ).toBeNull();
    // Numbers of different periods (or scenarios, or places) of one subject: the sentences say different things.
    expect(
      detectContradiction(
        'Between 1900 and 2016, the sea level rose by 16–21 cm (6.3–8.3 in).',
        'Since the last glacial maximum about 20,000 years ago, the sea level has risen by more than 125 metres.',
      ),
    ).toBeNull();
  });

  it('finds negation and opposite verdicts, and leaves agreeing or unrelated statements alone', () => {
    expect(
      detectContradiction(
        'Photosynthesis occurs in animals that eat plants.',
        'Photosynthesis does not occur in animals that eat plants.',
      ),
    ).toMatchObject({ kind: 'negation' });
    expect(
      detectContradiction(
        'Arctic sea ice extent is increasing every decade.',
        'Arctic sea ice extent is decreasing every decade.',
      ),
    ).toMatchObject({ kind: 'opposite_verdict' });
    expect(
      detectContradiction(
        'Global mean sea level rose by 20 centimetres.',
        'Sea level globally rose by about 20 centimetres.',
      ),
    ).toBeNull();
    expect(
      detectContradiction('The Calvin cycle fixes carbon dioxide.', 'Chlorophyll absorbs no green light.'),
    ).toBeNull();
  });
});
