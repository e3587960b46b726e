import { MAX_CONTEXT_SENTENCES, standaloneText } from '@research/engine';
import { reportOf } from './engine-support';

/** The claim whose span is `span` in a source of `content`, as standaloneText reads it. */
const alone = (content: string, span: string, language = 'en') =>
  standaloneText({ claim_text: span, evidence_span: span }, { content }, language);

describe('a claim read alone', () => {
  it('comes with the sentence before it when it opens with a pronoun or a connective', () => {
    const content =
      'Zeev Sharon and Michael Forrest Jones both run hotel start-ups in the US. He is the CEO of Hotelied.';
    expect(alone(content, 'He is the CEO of Hotelied.')).toBe(content);
    expect(alone(content, 'Zeev Sharon and Michael Forrest Jones both run hotel start-ups in the US.')).toBe(
      'Zeev Sharon and Michael Forrest Jones both run hotel start-ups in the US.',
    );
  });

  it('reaches back into the paragraph before (news gives a sentence a paragraph), never past a heading', () => {
    const story =
      'The U.S. has long been heralded as a land of opportunity.\n\n' +
      "But a new report by Stanford University's Center on Poverty and Inequality calls that into question.";
    const claim =
      "But a new report by Stanford University's Center on Poverty and Inequality calls that into question.";
    expect(alone(story, claim)).toBe(`The U.S. has long been heralded as a land of opportunity. ${claim}`);
    const afterHeading = 'Earlier reports agreed on it.\n\nA new ranking\n\n' + claim;
    expect(alone(afterHeading, claim)).toBe(claim);
  });

  it(`takes at most ${MAX_CONTEXT_SENTENCES} sentences, stopping at the first that leans on nothing`, () => {
    const content =
      'Energy Control runs a lab in Madrid. The group also runs one in Barcelona. It opened in 2014. ' +
      'It tests drugs bought on the deep web.';
    const claim = 'It tests drugs bought on the deep web.';
    expect(alone(content, claim)).toBe(`The group also runs one in Barcelona. It opened in 2014. ${claim}`);
    expect(MAX_CONTEXT_SENTENCES).toBe(2);
  });

  it("reads the run's language: a German claim opening with Er", () => {
    const content = 'Der Bericht nennt Dänemark an erster Stelle. Er stützt sich auf Daten aus zehn Ländern.';
    expect(alone(content, 'Er stützt sich auf Daten aus zehn Ländern.', 'de')).toBe(content);
    expect(alone(content, 'Er stützt sich auf Daten aus zehn Ländern.', 'en')).toBe(
      'Er stützt sich auf Daten aus zehn Ländern.',
    );
  });

  it('stays the claim when its span is not in the source', () => {
    expect(alone('Something else entirely.', 'But this is not there.')).toBe('But this is not there.');
  });
});

describe("the summary's first sentence", () => {
  const pages = [
    {
      title: 'Peanut allergy',
      sentences: [
        'For years, parents were told to keep peanuts away from babies to prevent a peanut allergy.',
        'Now research shows the opposite is true: feeding peanuts to babies early prevents a peanut allergy.',
      ],
    },
    {
      title: 'Hotel secrets',
      sentences: ['Hotels charge one dollar a night for every thousand dollars a room costs.'],
    },
  ];

  it('stands alone while the finding keeps the words of its claim, and the methodology counts what was left out', async () => {
    const report = await reportOf('Does feeding peanuts to babies early prevent a peanut allergy?', 'en', pages);
    const lead = pages[0]!.sentences[1]!;
    expect(report.findings[0]!.text).toBe(lead);
    expect(report.summary.startsWith(`${pages[0]!.sentences[0]} ${lead.slice(0, -1)} [F1].`)).toBe(true);
    expect(report.findings.map((f) => f.text)).not.toContain(pages[1]!.sentences[0]);
    // The findings resting on one source each are named in one sentence.
    expect(report.uncertainties.filter((u) => /single source/.test(u))).toEqual([
      'Findings F1, F2 rest on a single source each.',
    ]);
    expect(report.methodology).toMatch(
      /grouped into 3 propositions, 0 of them backed by several sources; 2 of them about the question \(1 left out of the findings as not about it\)\./,
    );
  });
});
