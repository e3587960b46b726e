import { rankFindings, reportText } from '@research/engine';
import { graphOf, reportOf } from './engine-support';

async function findingsOf(query: string, pages: ReadonlyArray<{ title: string; sentences: string[] }>) {
  return (await rankFindings({ query, plan: null, graph: graphOf(pages), evidence: [] })).map((r) => r.finding.text);
}

const UNRELATED = [
  {
    title: 'A survey of developers',
    sentences: [
      'In 2016, the site surveyed more than 56,000 developers about their work.',
      'The company is registered in the United States and runs the community site.',
    ],
  },
  {
    title: 'Underground cables',
    sentences: ['Con Edison maintains about 90,000 miles of underground cable, its engineers said in 2017.'],
  },
];

describe('findings only about the question', () => {
  it('lists no finding from sources that each share a word with the question but are not about it', async () => {
    expect(await findingsOf('What do site reliability engineers do about toil?', UNRELATED)).toEqual([]);
  });

  it('lists a disagreement between two sources only when one of its claims is about the question', async () => {
    const pages = [
      { title: 'Old bridge', sentences: ['The city council opened the old river bridge in 1990 after a long debate.'] },
      {
        title: 'River news',
        sentences: ['The city council did not open the old river bridge in 1990 after a long debate.'],
      },
    ];
    const about = await reportOf('When did the city council open the old river bridge?', 'en', pages);
    expect(about.disagreements).toHaveLength(1);
    expect(about.disagreements[0]!.kind).toBe('negation');
    const elsewhere = await reportOf('What do site reliability engineers do about toil?', 'en', pages);
    expect(elsewhere.findings).toEqual([]);
    expect(elsewhere.disagreements).toEqual([]);
  });

  it('says plainly, in the run language, that the sources read do not answer the question', async () => {
    const en = await reportOf('What do site reliability engineers do about toil?', 'en', UNRELATED);
    expect(en.findings).toEqual([]);
    expect(en.summary).toBe(reportText('en').notAnswered(2));
    const de = await reportOf('Was tun Site-Reliability-Engineers gegen Toil?', 'de', UNRELATED);
    expect(de.summary).toBe(
      'Die 2 gelesenen Quellen beantworten diese Frage nicht: Keine ihrer Aussagen handelt davon, daher nennt der Bericht keine Befunde.',
    );
    expect((await reportOf('What is toil?', 'en', [])).summary).toBe(reportText('en').noFindings);
  });

  it('reports on a statement to check with what the sources say of it, not as a question after a name they lack', async () => {
    const pages = [
      {
        title: 'Little Ice Age',
        sentences: [
          'Scientists found that the factors which caused the Little Ice Age cooling were volcanic eruptions.',
        ],
      },
    ];
    const claim = await reportOf(
      'The factors which caused the Little Ice Age cooling are causing warming now.',
      'en',
      pages,
    );
    expect(claim.findings.length).toBeGreaterThan(0);
    expect(claim.summary.startsWith(reportText('en').answerNotFound)).toBe(false);
    expect(claim.summary).toMatch(/^Scientists found that the factors which caused/);
  });

  it('needs two of the question’s concepts when it names things in different roles (a name counts once)', async () => {
    const findings = await findingsOf('Why did the United States lift sanctions on Sudan?', [
      {
        title: 'Sudan sanctions',
        sentences: [
          'The American government plans to lift trade sanctions on Sudan, officials said in 2017.',
          'Sudan is one of the poorest countries in Africa.',
        ],
      },
      {
        title: 'Public debt',
        sentences: ['The total public debt of the United States stands at nearly $16 trillion.'],
      },
    ]);
    expect(findings).toEqual([
      'The American government plans to lift trade sanctions on Sudan, officials said in 2017.',
    ]);
  });

  it('takes a statement about one of the things a question compares as about the question', async () => {
    const findings = await findingsOf('Who is older, Annie Morton or Terry Richardson?', [
      { title: 'Annie Morton', sentences: ['Annie Morton (born October 8, 1970) is an American model.'] },
      {
        title: 'Terry Richardson',
        sentences: ['Terry Richardson (born August 14, 1965) is an American photographer.'],
      },
      { title: 'Old trees', sentences: ['The older trees of the park were planted in 1900.'] },
    ]);
    expect(findings.sort()).toEqual([
      'Annie Morton (born October 8, 1970) is an American model.',
      'Terry Richardson (born August 14, 1965) is an American photographer.',
    ]);
  });

  it('reaches the second step of a question on the page about a name the first step gave', async () => {
    const firstStep = {
      title: 'Brown State Fishing Lake',
      sentences: ['Brown State Fishing Lake is a protected area in Brown County, Kansas in the United States.'],
    };
    const answer = 'As of the 2010 census, the county population was 9,984.';
    const query = 'Brown State Fishing Lake is in a country that has a population of how many inhabitants?';
    expect(await findingsOf(query, [firstStep, { title: 'Brown County, Kansas', sentences: [answer] }])).toContain(
      answer,
    );
    // The same sentence on a page about something else is not the second step.
    expect(await findingsOf(query, [firstStep, { title: 'Census of Ohio', sentences: [answer] }])).not.toContain(
      answer,
    );
    // Without a first step there is no second one.
    expect(await findingsOf(query, [{ title: 'Brown County, Kansas', sentences: [answer] }])).toEqual([]);
  });

  it('leads with the claim that answers, on the page of the name the first step gave, unless the question chooses', async () => {
    const firstStep = {
      title: 'Brown State Fishing Lake',
      sentences: ['Brown State Fishing Lake is a protected area in Brown County, Kansas in the United States.'],
    };
    const answer = 'As of the 2010 census, the county population was 9,984.';
    const query = 'Brown State Fishing Lake is in a county that has a population of how many inhabitants?';
    expect(await findingsOf(query, [firstStep, { title: 'Brown County, Kansas', sentences: [answer] }])).toEqual([
      answer,
      firstStep.sentences[0],
    ]);
    // A page that only mentions the question's subject leads elsewhere: its name's page gives no answer here.
    const anglers = {
      title: 'Fishing in Kansas',
      sentences: ['Anglers at Brown State Fishing Lake often drive in from Kansas City.'],
    };
    const city = 'Kansas City is the largest city of Missouri and lies on the Kansas border.';
    const both = await findingsOf(query, [
      firstStep,
      anglers,
      { title: 'Brown County, Kansas', sentences: [answer] },
      { title: 'Kansas City', sentences: [city] },
    ]);
    expect(both[0]).toBe(answer);
    const choice = 'Which has more inhabitants, Brown State Fishing Lake or Clear Lake?';
    expect((await findingsOf(choice, [firstStep, { title: 'Brown County, Kansas', sentences: [answer] }]))[0]).toBe(
      firstStep.sentences[0],
    );
  });

  it('leads with the linking name’s finding even when more findings than the report lists outrank it', async () => {
    const query = 'Brown State Fishing Lake is in a county that has a population of how many inhabitants?';
    const firstStep = {
      title: 'Brown State Fishing Lake',
      sentences: ['Brown State Fishing Lake is a protected area in Brown County, Kansas in the United States.'],
    };
    const answer = 'As of the 2010 census, the county population was 9,984.';
    // Eleven statements about other counties' inhabitants, each made by two sources: each outranks the answer,
    // which one source makes (a deeper run reads many such pages). The second hop searched the linking name.
    const others = [
      ['Greeley', 'after the drought'],
      ['Wallace', 'before the railway'],
      ['Hamilton', 'during the war'],
      ['Stanton', 'when the mill closed'],
      ['Morton', 'as wheat prices fell'],
      ['Stevens', 'once the dam opened'],
      ['Seward', 'while oil was pumped'],
      ['Meade', 'after the flood'],
      ['Clark', 'before statehood'],
      ['Comanche', 'as schools merged'],
      ['Barber', 'when cattle drives ended'],
    ].flatMap(([county, when], i) =>
      [1, 2].map((copy) => ({
        title: `${county} history ${copy}`,
        sentences: [`${county} county had a population of ${1000 + i * 37} inhabitants ${when}.`],
      })),
    );
    const graph = graphOf([firstStep, ...others, { title: 'Brown County, Kansas', sentences: [answer] }]);
    const findings = (await rankFindings({ query, plan: null, graph, evidence: [] })).map((r) => r.finding.text);
    expect(findings[0]).toBe(answer);
    expect(findings).toHaveLength(10);
  });

  it('takes a sentence that calls its page’s subject by a short name as about it, when it holds a concept of its own', async () => {
    const query =
      'The VCU Rams team, led by head coach Shaka Smart, represented Virginia Commonwealth University, founded in what year?';
    const answer = 'VCU was founded in 1838 as the medical department of Hampden–Sydney College.';
    const elsewhere = 'VCU has its main campus in Richmond.';
    const findings = await findingsOf(query, [
      {
        title: 'VCU Rams basketball',
        sentences: ['The VCU Rams team represented Virginia Commonwealth University in 2012.'],
      },
      { title: 'Virginia Commonwealth University', sentences: [answer, elsewhere] },
    ]);
    expect(findings).toContain(answer);
    // The page's subject alone does not make a sentence on it about the question.
    expect(findings).not.toContain(elsewhere);
    // Nor does the sentence alone, on a page about something else.
    expect(await findingsOf(query, [{ title: 'Hampden–Sydney College', sentences: [answer] }])).toEqual([]);
  });

  it('gives one finding to a sentence a series of pages repeats, and the room to what else the sources say', async () => {
    const query =
      'The VCU Rams men’s basketball team represented Virginia Commonwealth University, founded in what year?';
    const series = Array.from({ length: 12 }, (_, i) => ({
      title: `${2000 + i} VCU Rams men’s basketball team`,
      sentences: [
        `The ${2000 + i} VCU Rams men’s basketball team represented Virginia Commonwealth University in the ${2000 + i} season.`,
      ],
    }));
    const answer = 'Virginia Commonwealth University was founded in 1838 as a medical college.';
    const findings = await findingsOf(query, [
      ...series,
      { title: 'Virginia Commonwealth University', sentences: [answer] },
    ]);
    expect(findings).toContain(answer);
    expect(findings).toHaveLength(10);
  });

  it('weighs a word the question shares with few of the run’s claims above words all of them share', async () => {
    const query = 'What type of forum did a former Soviet statesman initiate?';
    const statesmen = Array.from({ length: 8 }, (_, i) => ({
      title: `Statesman ${i}`,
      sentences: [`Statesman number ${i} (born 19${10 + i}) was a former Soviet statesman of the party.`],
    }));
    const answer = 'The summit, initiated by Mikhail Gorbachev, is a forum for laureates.';
    const findings = await findingsOf(query, [...statesmen, { title: 'World Summit', sentences: [answer] }]);
    expect(findings[0]).toBe(answer);
  });
});
