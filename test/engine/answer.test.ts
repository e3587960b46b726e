import { DEPTH_BUDGETS, loadConfig } from '@research/core';
import {
  answerSpans,
  dateSpans,
  findAnswer,
  linkingNames,
  planBridge,
  planResearch,
  readQuestion,
  type AnswerClaim,
  type AnswerSource,
} from '@research/engine';
import { createLlmClient } from '@research/llm';
import { createMetrics, createSilentLogger } from '@research/observability';
import { startFakeLlm, type FakeLlm } from '../fakes/fake-llm';

// What a question asks for, and the claim that answers it.
describe('what a question asks for', () => {
  it('reads the kind of answer from the question word and the noun after it, in the service languages', () => {
    expect(readQuestion('In what year did the bridge open to traffic?', 'en').kind).toBe('date');
    expect(readQuestion('Wann wurde die Brücke eröffnet?', 'de').kind).toBe('date');
    expect(readQuestion('How many people can the stadium seat?', 'en').kind).toBe('number');
    expect(readQuestion('Combien de personnes vivent à Lyon ?', 'fr').kind).toBe('number');
    expect(readQuestion('Who designed the lighthouse on the northern cape?', 'en').kind).toBe('person');
    expect(readQuestion('Which American architect designed the lighthouse?', 'en').kind).toBe('person');
    expect(readQuestion('The director of the film is based in what New York city?', 'en').kind).toBe('place');
    expect(readQuestion('¿Dónde nació la pintora?', 'es').kind).toBe('place');
    expect(readQuestion('What material are the two bridges made of?', 'en').kind).toBe('name');
    expect(readQuestion('Remote work lowers productivity', 'en').kind).toBe('open');
    expect(readQuestion('Are both bridges made of steel?', 'en').kind).toBe('yes_no');
  });

  it('reads what "What is the …" asks for from the noun after it', () => {
    expect(readQuestion('What is the date of birth of the director of film Harbour Lights?', 'en').kind).toBe('date');
    expect(readQuestion('What is the place of birth of the director of film Harbour Lights?', 'en').kind).toBe('place');
    expect(readQuestion('What was the population of Kiel in 1900?', 'en').kind).toBe('number');
    expect(readQuestion('What is the name of the bridge over the canal?', 'en').kind).toBe('name');
  });

  it('reads a question after a sum of money, in the service languages, and not one that counts things', () => {
    expect(readQuestion('How much did the city pay for the new bridge?', 'en').money).toBe(true);
    expect(readQuestion('How much does a ticket to the museum cost?', 'en').money).toBe(true);
    expect(readQuestion('Wie viel kostet die Brücke?', 'de').money).toBe(true);
    expect(readQuestion('Combien coûte le billet ?', 'fr').money).toBe(true);
    expect(readQuestion('How many copies of the novel were sold?', 'en').money).toBe(false);
    expect(readQuestion('How many times has he won the Grand Prix?', 'en').money).toBe(false);
    expect(readQuestion('How much rain falls in the valley?', 'en').money).toBe(false);
  });

  it('reads the birth or death a question asks after, in any words, and nothing else as one', () => {
    expect(readQuestion('Where was the place of death of the architect?', 'en').life?.event).toBe('death');
    expect(readQuestion('Where did the painter born in Padua die?', 'en').life?.event).toBe('death');
    expect(readQuestion('When is the director’s birthday?', 'en').life?.event).toBe('birth');
    expect(readQuestion('¿Dónde murió la pintora?', 'es').life?.event).toBe('death');
    expect(readQuestion('When did Portugal join NATO?', 'en').life).toBeNull();
    expect(readQuestion('Which mortal sin did Dante place lowest?', 'en').life).toBeNull();
  });

  it('reads whether a question asks for a person by a family tie', () => {
    expect(readQuestion('Who is the mother of the director of film Harbour Lights?', 'en').family).toBe(true);
    expect(readQuestion("Who is Ilse Marten's paternal grandfather?", 'en').family).toBe(true);
    expect(readQuestion('Who directed the film Harbour Lights?', 'en').family).toBe(false);
    expect(readQuestion('When was the mother of the director born?', 'en').family).toBe(false);
  });

  it('reads whether a question asks for a person as the doer rather than as whom something was done to', () => {
    const agent = (q: string, language = 'en') => readQuestion(q, language).agent;
    expect(agent('Who designed the Harbour Library?')).toBe(true);
    expect(agent('Which actress was in Harbour Lights and Night Ferry?')).toBe(true);
    expect(agent('Who did the director of Harbour Lights defeat in a dancing contest?')).toBe(false);
    expect(agent('The architect sold his firm to whom?')).toBe(false);
    expect(agent('Who is the mother of the director of film Harbour Lights?')).toBe(false);
    expect(agent('Where was the architect of the Harbour Library born?')).toBe(false);
    expect(agent('Wer entwarf die Hafenbibliothek?', 'de')).toBe(false);
  });

  it('takes the last question word when the first is a relative pronoun', () => {
    expect(readQuestion('The actor who appeared on the show was born in what year?', 'en').kind).toBe('date');
  });

  it('reads a statement to check as asking for no fact, whatever words it holds, and a question typed with a full stop as a question', () => {
    // A claim with "which" or "who" in it is not a question after a name or a person.
    expect(readQuestion('Scientists say the factors which caused the cooling are gone.', 'en').kind).toBe('open');
    expect(readQuestion('Gov. Palin is somebody who doubts that climate change is man-made.', 'en').kind).toBe('open');
    expect(readQuestion('Sea ice, which melts, is at a record low, say scientists!', 'en').kind).toBe('open');
    expect(readQuestion('Which of his brothers plays for the club Borussia Mönchengladbach.', 'en').kind).toBe('name');
    expect(readQuestion('Who painted the Mona Lisa.', 'en').kind).toBe('person');
    expect(readQuestion('Is the Nile longer than the Amazon.', 'en').kind).toBe('yes_no');
    // Without a full stop, the question word decides as before.
    expect(readQuestion('who founded the studio', 'en').kind).toBe('person');
  });

  it('reads a choice between two named things, and how the question decides it', () => {
    const first = readQuestion('Which magazine was started first, Arthur’s Magazine or First for Women?', 'en');
    expect(first).toMatchObject({
      kind: 'choice',
      options: ['Arthur’s Magazine', 'First for Women'],
      comparison: { attribute: 'date', pick: 'least' },
    });
    const names = readQuestion('Was Pepper Keenan or Rob Parissi born first?', 'en');
    expect(names).toMatchObject({ kind: 'choice', options: ['Pepper Keenan', 'Rob Parissi'] });
    expect(readQuestion('Which city has more inhabitants, Kiel or Lübeck?', 'en').comparison).toEqual({
      attribute: 'number',
      pick: 'most',
    });
    expect(readQuestion('Which singer is also a painter, Ana Lopes or Rui Mota?', 'en').comparison).toBeNull();
  });
});

describe('answer spans', () => {
  it('reads dates with their day and month, years, centuries and days without a year', () => {
    expect(dateSpans('Born on March 11, 1887 in Kiel, she died in 1980.').map((d) => [d.text, d.value])).toEqual([
      ['March 11, 1887', 18870311],
      ['1980', 19800000],
    ]);
    expect(dateSpans('It was popular at the end of the 18th century.').map((d) => d.text)).toEqual([
      'end of the 18th century',
    ]);
    expect(dateSpans('The game launched on December 15.').map((d) => d.text)).toEqual(['December 15']);
  });

  it('counts only an answer the question does not give', () => {
    const q = readQuestion('In what year did the 1998 expedition reach the summit?', 'en');
    expect(
      answerSpans('The expedition of 1998 reached the summit in 2001.', q.kind, q.terms).map((s) => s.text),
    ).toEqual(['2001']);
    expect(answerSpans('The 1998 expedition was long and cold.', q.kind, q.terms)).toEqual([]);
    const w = readQuestion('Who founded the Marlow Rowing Club?', 'en');
    expect(
      answerSpans('The club was founded by Edith Carrow and her brother.', w.kind, w.terms).map((s) => s.text),
    ).toEqual(['Edith Carrow']);
    expect(answerSpans('The Marlow Rowing Club rows on the river.', w.kind, w.terms)).toEqual([]);
  });
});

describe('the answer of a run', () => {
  const source = (id: string, title: string): AnswerSource => ({ id, title });
  const claim = (id: string, sourceId: string, text: string): AnswerClaim => ({ id, sourceId, text });

  it('follows a name to its page: the claim there that tells what the question asks of the name answers it', async () => {
    const asked = readQuestion('Where was the architect of the Harbour Library born?', 'en');
    const sources = [source('lib', 'Harbour Library'), source('ilse', 'Ilse Marten (architect)'), source('x', 'Kiel')];
    const claims = [
      claim('c1', 'lib', 'The Harbour Library was designed by the architect Ilse Marten in 1931.'),
      claim('c2', 'ilse', 'Ilse Marten was born in Flensburg and studied in Vienna.'),
      claim('c3', 'x', 'Kiel is a port on the Baltic Sea with a library.'),
    ];
    const { answer } = await findAnswer(asked, claims, sources);
    expect(answer).toMatchObject({ claimId: 'c2', span: 'Flensburg', via: ['c1'] });
  });

  it('answers "where" with a place the page names, not with the page itself or an attribute of its subject', async () => {
    const asked = readQuestion('Where was the director of film Harbour Lights born?', 'en');
    const sources = [source('film', 'Harbour Lights'), source('ilse', 'Ilse Marten')];
    const claims = [
      claim('c1', 'film', 'Harbour Lights is a 1931 film directed by Ilse Marten.'),
      claim('c2', 'ilse', 'Ilse Marten (born 4 May 1902) is a German film director and architect.'),
      claim('c3', 'ilse', 'Born in Flensburg, Marten studied painting in Vienna.'),
    ];
    const { answer } = await findAnswer(asked, claims, sources);
    expect(answer).toMatchObject({ claimId: 'c3', span: 'Flensburg', via: ['c1'] });
  });

  it('reads "place of death" and "date of death" in a claim that tells the death in its own words', async () => {
    const sources = [source('film', 'Harbour Lights'), source('ilse', 'Ilse Marten')];
    const claims = [
      claim('c1', 'film', 'Harbour Lights is a 1931 film directed by Ilse Marten.'),
      claim('c2', 'ilse', 'Ilse Marten (4 May 1902 – 9 June 1977) was a German film director born in Flensburg.'),
      claim('c3', 'ilse', 'She died in Lisbon, where she had lived since the war.'),
    ];
    const place = readQuestion('Where was the place of death of the director of film Harbour Lights?', 'en');
    expect((await findAnswer(place, claims, sources)).answer).toMatchObject({ claimId: 'c3', span: 'Lisbon' });
    // A life's span gives the death's date after its dash, the birth's before it.
    const died = readQuestion('What is the date of death of the director of film Harbour Lights?', 'en');
    expect((await findAnswer(died, claims, sources)).answer).toMatchObject({ claimId: 'c2', span: '9 June 1977' });
    const born = readQuestion('When is the director of film Harbour Lights’s birthday?', 'en');
    expect((await findAnswer(born, claims, sources)).answer).toMatchObject({ claimId: 'c2', span: '4 May 1902' });
  });
  it('names an answer that is a page’s subject in full, not by the short name the page calls it by', async () => {
    const asked = readQuestion('What hockey team drafted Ilse Marten in 1999 and won the Baltic Cup in 2004?', 'en');
    const sources = [source('ilse', 'Ilse Marten'), source('team', 'Kiel Harbour Gulls')];
    const claims = [
      claim('c1', 'ilse', 'Marten was drafted by the Kiel Harbour Gulls in the 1999 draft.'),
      claim('c2', 'team', 'The Gulls have won one Baltic Cup, in 2004.'),
    ];
    const { answer } = await findAnswer(asked, claims, sources);
    expect(answer).toMatchObject({ span: 'Kiel Harbour Gulls' });
  });

  it('follows a name to the page its words and the question’s make: "the Diocese of the birthplace"', async () => {
    const asked = readQuestion('Of what church is the Diocese of the birthplace of Ilse Marten?', 'en');
    const sources = [
      source('ilse', 'Ilse Marten'),
      source('dio', 'Diocese of Flensburg'),
      source('other', 'Diocese of Kiel'),
    ];
    const claims = [
      claim('c1', 'ilse', 'Ilse Marten (born 1902 in Flensburg, Schleswig) was a German architect.'),
      claim('c2', 'dio', 'It is a diocese of the Northern Province of the Lutheran Church of Denmark.'),
      claim('c3', 'other', 'The Diocese of Kiel belongs to the Old Catholic Church.'),
    ];
    const { answer } = await findAnswer(asked, claims, sources);
    // "Flensburg" and the question's "Diocese" make the page "Diocese of Flensburg"; Kiel's diocese is no step of the chain.
    expect(answer).toMatchObject({ claimId: 'c2', span: 'Lutheran Church of Denmark', via: ['c1'] });
  });

  it('states an answer that is a page’s subject by that page’s sentence writing the name out in full', async () => {
    const asked = readQuestion('The Frozen Road is a memoir written by which English explorer of Greenland?', 'en');
    const sources = [source('memoir', 'The Frozen Road'), source('edwin', 'Edwin Marlowe')];
    const claims = [
      claim('m1', 'memoir', 'The Frozen Road was written in 1922 by a member of the expedition, Edwin Marlowe.'),
      claim('e1', 'edwin', 'Edwin George Tobias Marlowe (1886 – 1959) was an English explorer of Greenland.'),
      claim('e2', 'edwin', 'Robert "Rob" Marlowe, his brother, kept the ship.'),
    ];
    const { answer } = await findAnswer(asked, claims, sources);
    // The explorer's own page says who he is, with his given names: it states the answer, not the memoir's mention.
    expect(answer).toMatchObject({ claimId: 'e1', span: 'Edwin Marlowe', via: ['m1'] });
  });

  it('decides a choice by the dates the options’ claims give', async () => {
    const asked = readQuestion('Which bridge opened first, the Kiel Bridge or the Lübeck Bridge?', 'en');
    const sources = [source('k', 'Kiel Bridge'), source('l', 'Lübeck Bridge')];
    const claims = [
      claim('k1', 'k', 'The Kiel Bridge opened in 1912 over the canal.'),
      claim('l1', 'l', 'The Lübeck Bridge opened in 1898 over the Trave.'),
    ];
    const { answer } = await findAnswer(asked, claims, sources);
    expect(answer).toMatchObject({ claimId: 'l1', span: 'Lübeck Bridge' });
  });

  it('compares births by the lives the options’ pages lead to, not by the years of the films', async () => {
    const asked = readQuestion('Which film has the director born first, Harbour Lights or Night Ferry?', 'en');
    const sources = [
      source('hl', 'Harbour Lights'),
      source('nf', 'Night Ferry'),
      source('ilse', 'Ilse Marten'),
      source('paul', 'Paul Roder'),
      source('anna', 'Anna Lund'),
    ];
    const claims = [
      claim('h1', 'hl', 'Harbour Lights is a 1931 film directed by Ilse Marten.'),
      claim('n1', 'nf', 'Night Ferry is a 1948 film directed by Paul Roder.'),
      claim('i1', 'ilse', 'Ilse Marten (born 4 May 1902) is a German film director.'),
      claim('p1', 'paul', 'Paul Roder (2 March 1889 – 5 July 1960) was a Danish film director.'),
      // A life on a page that only holds an option's words is not the option's.
      claim('a1', 'anna', 'Anna Lund (born 1 January 1880), a film director, was the first to sing of Harbour Lights.'),
    ];
    const { answer } = await findAnswer(asked, claims, sources);
    expect(answer).toMatchObject({ claimId: 'n1', span: 'Night Ferry', via: ['p1'] });
  });

  it('prefers a chain through a page naming what the question names to one that only shares its other words', async () => {
    const asked = readQuestion('Where did the director of film Harbour Lights study?', 'en');
    const sources = [source('film', 'Harbour Lights'), source('ilse', 'Ilse Marten'), source('ola', 'Ola Berg')];
    const claims = [
      claim('c1', 'film', 'Harbour Lights is a 1931 film made by Ilse Marten.'),
      claim('c2', 'ilse', 'Marten graduated from the Vienna Academy in 1925.'),
      // A page that never names Harbour Lights whole, holding more of the question's words ("lights" among them).
      claim('c3', 'ola', 'Ola Berg is a film director who studied stage lights at the Bergen Theatre School.'),
    ];
    const { answer } = await findAnswer(asked, claims, sources);
    expect(answer).toMatchObject({ claimId: 'c2', span: 'Vienna Academy', via: ['c1'] });
  });

  it('answers a question after a sum of money with a sum its sentence writes with a currency', async () => {
    const asked = readQuestion('How much did the Harbour Company pay for the Kiel ferry line?', 'en');
    const sources = [source('ferry', 'Harbour Company buys the Kiel ferry line from its founders')];
    const claims = [
      claim('f1', 'ferry', 'From the deck of his 106-year-old ferry, the captain has seen the Harbour Company change.'),
      claim(
        'f2',
        'ferry',
        'The Harbour Company bought the Kiel ferry line in 2017 for $13.7 million, its largest purchase.',
      ),
    ];
    const { answer } = await findAnswer(asked, claims, sources);
    expect(answer).toMatchObject({ claimId: 'f2', span: '$13.7 million' });
    const none = await findAnswer(asked, claims.slice(0, 1), sources);
    expect(none.answer).toBeNull();
    const euros = await findAnswer(
      readQuestion('Wie viel zahlte die Hafengesellschaft für die Fährlinie?', 'de'),
      [
        claim('d1', 'ferry', 'Die Hafengesellschaft zahlte 4,8 Millionen Euro für die Fährlinie nach Kiel.'),
        claim('d2', 'ferry', 'Die Fähren fahren seit 1921 zweimal am Tag.'),
      ],
      sources,
    );
    expect(euros.answer).toMatchObject({ claimId: 'd1', span: '4,8' });
  });

  it('takes a name the question gives as written by one statement, not as its words spread over a page', async () => {
    const asked = readQuestion('What is the capital of South Sudan?', 'en');
    const sources = [source('sanctions', 'The sanctions are lifted after twenty years of talks')];
    const spread = [
      claim('s1', 'sanctions', 'Fighting goes on in the south of the country and in Darfur.'),
      claim('s2', 'sanctions', 'Osama bin Laden lived in Khartoum, the capital, as a guest of the Sudan government.'),
    ];
    const notNamed = await findAnswer(asked, spread, sources);
    expect(notNamed.answer).toBeNull();
    const named = await findAnswer(
      asked,
      [...spread, claim('s3', 'sanctions', 'South Sudan split from Sudan in 2011, with Juba as its capital.')],
      sources,
    );
    expect(named.answer).toMatchObject({ claimId: 's3', span: 'Juba' });
  });

  it('ends a chain holding as much either way at the claim telling the date or place of the life event asked', async () => {
    // The film's page and its director's name each other: the chain through both holds the same words ending at
    // either claim, and the film's page comes first.
    const sources = [source('film', 'Harbour Lights'), source('ilse', 'Ilse Marten')];
    const place = [
      claim('c1', 'film', 'Harbour Lights is a 1931 film directed by Ilse Marten, shot at Babelsberg.'),
      claim('c2', 'ilse', 'Marten died in Salzburg in 1960, after directing Harbour Lights.'),
    ];
    const died = await findAnswer(
      readQuestion('Where did the director of film Harbour Lights die?', 'en'),
      place,
      sources,
    );
    expect(died.answer).toMatchObject({ claimId: 'c2', span: 'Salzburg' });
    const dates = [
      claim('c1', 'film', 'Harbour Lights is a 1931 film directed by Ilse Marten.'),
      claim('c2', 'ilse', 'Ilse Marten (1890 – 1960) directed Harbour Lights.'),
    ];
    const when = await findAnswer(
      readQuestion('When did the director of film Harbour Lights die?', 'en'),
      dates,
      sources,
    );
    expect(when.answer).toMatchObject({ claimId: 'c2', span: '1960' });
  });

  it('answers a family tie with the name the tie gives, of claims ending chains that hold as much', async () => {
    const asked = readQuestion('Who is the spouse of the director of film Harbour Lights?', 'en');
    const sources = [source('film', 'Harbour Lights'), source('ilse', 'Ilse Marten')];
    const claims = [
      claim('c1', 'film', 'Harbour Lights is a 1931 film directed by Ilse Marten.'),
      claim('c2', 'ilse', 'Ilse Marten (1890 – 1960) was an Austrian film director of Harbour Lights.'),
      claim('c3', 'ilse', 'She was married to Austrian stage and screenwriter Paul Roder until 1950.'),
    ];
    const { answer } = await findAnswer(asked, claims, sources);
    expect(answer).toMatchObject({ claimId: 'c3', span: 'Paul Roder', via: ['c1'] });
  });

  it('answers a question after the doer with the subject a claim speaks of, not another name it holds', async () => {
    const sources = [source('lib', 'Harbour Library'), source('ilse', 'Ilse Marten')];
    const claims = [
      claim('c1', 'lib', 'The Harbour Library is a public library in Kiel, opened in 1931.'),
      claim('c2', 'ilse', 'Ilse Marten (1890 – 1960) was a German architect.'),
      claim('c3', 'ilse', 'With her partner Paul Roder she designed the Harbour Library in Kiel.'),
    ];
    const designed = await findAnswer(readQuestion('Who designed the Harbour Library?', 'en'), claims, sources);
    expect(designed.answer).toMatchObject({ span: 'Ilse Marten' });
    // The page's subject by its short name, first: "Marten designed …".
    const short = [claims[0]!, claims[1]!, claim('c3', 'ilse', 'Marten designed the Harbour Library with Paul Roder.')];
    const byName = await findAnswer(readQuestion('Who designed the Harbour Library?', 'en'), short, sources);
    expect(byName.answer).toMatchObject({ span: 'Ilse Marten' });
    // Read as a question after whom something was done to, the name the claim holds answers.
    const asked = { ...readQuestion('Who designed the Harbour Library?', 'en'), agent: false };
    expect((await findAnswer(asked, claims, sources)).answer).toMatchObject({ claimId: 'c3', span: 'Paul Roder' });
  });

  it('gives no answer when no page the run read names what the question names, however much else a claim holds', async () => {
    // The pages of Harbour Lights and its director were not read: a film of another name, by another director,
    // holds the question's other words.
    const asked = readQuestion('Where did the director of film Harbour Lights study?', 'en');
    const sources = [source('ola', 'Ola Berg'), source('dawn', 'Harbour Dawn')];
    const claims = [
      claim('c1', 'ola', 'Ola Berg is a film director who studied at the Bergen Theatre School.'),
      claim('c2', 'dawn', 'Harbour Dawn is a 1950 film directed by Ola Berg.'),
    ];
    const reading = await findAnswer(asked, claims, sources);
    expect(reading.answer).toBeNull();
    // The claim that would have answered stays the closest, for the report to list after saying so.
    expect(reading.candidates[0]).toBe('c1');
    // With the film's page read, the same claim answers through it.
    const named = [...claims, claim('c3', 'film', 'Harbour Lights is a 1931 film directed by Ola Berg.')];
    const withFilm = await findAnswer(asked, named, [...sources, source('film', 'Harbour Lights')]);
    expect(withFilm.answer).toMatchObject({ claimId: 'c1', span: 'Bergen Theatre School', via: ['c3'] });
  });

  it('gives no answer when no claim holds a span of the kind asked, or too little of the question', async () => {
    const asked = readQuestion('In what year was the Harbour Library built?', 'en');
    const sources = [source('lib', 'Harbour Library'), source('x', 'Pancakes')];
    expect(
      (await findAnswer(asked, [claim('c1', 'lib', 'The Harbour Library holds maps of the coast.')], sources)).answer,
    ).toBeNull();
    expect(
      (await findAnswer(asked, [claim('c2', 'x', 'Pancakes were first served in 1931.')], sources)).answer,
    ).toBeNull();
  });
});

const LIBRARY = {
  question: 'Where was the architect of the Harbour Library born?',
  language: 'en',
  limit: 4,
  searched: new Set<string>(),
  sources: [
    {
      title: 'Harbour Library',
      content:
        'The Harbour Library was designed by the architect Ilse Marten with the engineer Paul Roder in 1931. ' +
        'The Harbour Library holds maps of the Baltic coast. Visitors come from Denmark every summer.',
    },
  ],
};

describe('the names the next hop searches', () => {
  let fake: FakeLlm;
  beforeAll(async () => {
    fake = await startFakeLlm();
  });
  afterAll(() => fake.close());

  function llmContext() {
    const config = loadConfig({ LLM_BASE_URL: fake.baseUrl, LOG_LEVEL: 'error' }).llm;
    const llm = createLlmClient({
      config,
      metrics: createMetrics({ defaultMetrics: false }),
      logger: createSilentLogger(),
      retryBaseMs: 1,
      maxAttempts: 1,
    });
    const ctx = {
      usage: {} as Record<string, number>,
      budget: DEPTH_BUDGETS.quick,
      signal: new AbortController().signal,
    };
    return { llm, ctx };
  }

  it('asks the model, in one call, for what the question needs beyond the names the pages give', async () => {
    const { llm, ctx } = llmContext();
    const sent = fake.requests.length;
    fake.script.push({ kind: 'json', content: { queries: ['Harbour Library', 'Paul Roder', 'Marten family'] } });
    const result = await planBridge(llm, ctx, LIBRARY);
    expect(fake.requests.slice(sent).map((r) => r.schemaName)).toEqual(['bridge_queries']);
    expect(result.mode).toBe('llm');
    // The pages' names keep their places; the model's fill the room they leave, without the question's own words
    // or a name given already.
    expect(result.queries.map((q) => q.name)).toEqual(['Ilse Marten', 'Paul Roder', 'Marten family']);
    expect(ctx.usage.llm_requests).toBe(1);
  });

  it('asks no model when the names the pages give fill the hop', async () => {
    const { llm, ctx } = llmContext();
    const sent = fake.requests.length;
    const result = await planBridge(llm, ctx, { ...LIBRARY, limit: 2 });
    expect(fake.requests.length).toBe(sent);
    expect(result.queries.map((q) => q.name)).toEqual(['Ilse Marten', 'Paul Roder']);
  });

  it('falls back to the names the pages give when the model fails, and says why', async () => {
    const { llm, ctx } = llmContext();
    fake.script.push({ kind: 'status', status: 500 });
    const result = await planBridge(llm, ctx, LIBRARY);
    expect(result.mode).toBe('extractive');
    expect(result.queries.map((q) => q.name)).toEqual(['Ilse Marten', 'Paul Roder']);
    expect(result.fallback).toBeDefined();
  });

  it('reads names from the pages that best match the question, two a page, nearest the question’s words first', async () => {
    const names = await linkingNames({
      ...LIBRARY,
      pages: [
        { title: 'Baltic coast', content: 'A library of the Baltic coast was designed by Karl Holm.' },
        ...LIBRARY.sources,
      ],
    });
    // The Harbour Library's page matches the question best: its names come first, weighted by its page's rank;
    // the question's own names are not searched, and two a page at most.
    expect(names.map((n) => n.name)).toEqual(['Ilse Marten', 'Paul Roder', 'Baltic', 'Karl Holm']);
    expect(names[0]!.weight).toBeGreaterThan(names[2]!.weight);
  });

  it('reads names from the pages of the names the question gives first, however much another page holds', async () => {
    const names = await linkingNames({
      question: 'What nationality is the performer of the song Madan?',
      language: 'en',
      limit: 2,
      searched: new Set<string>(),
      pages: [
        {
          title: 'Jack Guthrie',
          content: 'Jack Guthrie was a songwriter and performer whose version of the song Oklahoma Hills was a hit.',
        },
        { title: 'Madan (song)', content: 'Madan is a song created by Salif Keita and the producer Martin Solveig.' },
      ],
    });
    // Jack Guthrie's sentence holds more of the question ("performer", "song"), but the chain starts at the song.
    expect(names.map((n) => n.name)).toEqual(['Salif Keita', 'Martin Solveig']);
  });

  it('leaves out the names searched before and the subjects of the pages the run holds', async () => {
    const names = await linkingNames({
      ...LIBRARY,
      searched: new Set(['paul roder']),
      pages: [...LIBRARY.sources, { title: 'Ilse Marten', content: 'Ilse Marten studied in Vienna.' }],
    });
    // Ilse Marten's page is read and Paul Roder was searched: the library page's next names come, one word or not.
    expect(names.map((n) => n.name)).toEqual(['Baltic', 'Denmark']);
  });

  it("keeps of a model's plan for a question after a fact only the queries that add to the question", async () => {
    const { llm, ctx } = llmContext();
    const modelPlan = (query: string) => ({
      query_categories: ['general'],
      sub_questions: [query],
      search_queries: [
        { query, dimension: 'core' },
        { query: 'architect harbour library', dimension: 'key_terms' },
        { query: 'Ilse Marten birthplace', dimension: 'entity' },
      ],
      counter_evidence_queries: ['harbour library criticism'],
      required_fields: ['key_facts'],
      search_dimensions: ['core'],
      time_sensitivity: 'none',
      confidence: 0.8,
    });
    const input = { language: 'en', extraQueries: [], referenceDate: new Date('2025-06-01T00:00:00Z') };
    const fact = LIBRARY.question;
    fake.script.push({ kind: 'json', content: modelPlan(fact) });
    const { plan } = await planResearch(llm, ctx, { ...input, query: fact });
    // Its rewording of the question's own words and its criticism would only spend the question's searches.
    expect(plan.search_queries.map((q) => q.query)).toEqual([fact, 'Ilse Marten birthplace']);
    expect(plan.counter_evidence_queries).toEqual([]);
    // A question of causes has sides: the model's plan is kept whole.
    const why = 'Why did the Harbour Library close?';
    fake.script.push({ kind: 'json', content: modelPlan(why) });
    const open = await planResearch(llm, ctx, { ...input, query: why });
    expect(open.plan.search_queries).toHaveLength(3);
    expect(open.plan.counter_evidence_queries).toEqual(['harbour library criticism']);
  });
});
