import { reportText } from '@research/engine';
import { createSearxngProvider } from '@research/search';
import { createBm25Index } from '../../scripts/eval/bm25';
import { CONTRADICTION_NEEDS, contradictionCases } from '../../scripts/eval/contradiction';
import {
  firstSentence,
  hostOfTitle,
  normaliseText,
  notFoundOpening,
  partOf,
  sentencesCoveredBy,
  standsAlone,
  statesAnswer,
  statesSomeAnswer,
} from '../../scripts/eval/protocol';
import { answersOf, pageNames, type QaItem } from '../../scripts/eval/question-sets';
import { startFakeWeb, type FakeWebPage } from '../fakes/fake-web';
import { describeWithData } from '../support/data-dir';
import { captureLogger } from '../search/support/capture-logger';

const page = (title: string, text: string, host = '127.0.0.2'): FakeWebPage => ({
  host,
  path: `/${title.toLowerCase().replace(/\W+/g, '-')}`,
  title,
  paragraphs: [text],
});

describe('BM25 search of the evaluation', () => {
  const docs = ['apple banana', 'apple apple cherry', 'banana banana banana banana banana banana date', 'fig'];
  const index = createBm25Index(docs, (d) => d);

  it('scores Okapi BM25 with k1 1.2 and b 0.75', () => {
    // "fig": n = 1 of N = 4 documents, tf 1, |d| 1, avgdl 13 / 4.
    const idf = Math.log(1 + (4 - 1 + 0.5) / (1 + 0.5));
    const expected = (idf * 1 * 2.2) / (1 + 1.2 * (1 - 0.75 + (0.75 * 1) / (13 / 4)));
    expect(index.search('fig', 10)).toEqual([{ doc: 'fig', score: expect.closeTo(expected, 10) }]);
  });

  it('ranks a rarer term above a commoner one, and leaves out documents sharing no term', () => {
    expect(index.search('cherry banana', 10).map((h) => h.doc)[0]).toBe('apple apple cherry');
    expect(index.search('Apple!', 10).map((h) => h.doc)).toEqual(['apple apple cherry', 'apple banana']);
    expect(index.search('grape', 10)).toEqual([]);
  });

  it('penalises length: the same term once in a long document weighs less than in a short one', () => {
    const short = createBm25Index(['x y', 'x y z w v u t s'], (d) => d).search('x', 2);
    expect(short.map((h) => h.doc)).toEqual(['x y', 'x y z w v u t s']);
  });

  it('answers the product SearXNG provider through the loopback web, best first, with 200-character snippets', async () => {
    const pages = [
      page('Kiss and Tell', `Kiss and Tell is a 1945 film. ${'It stars Shirley Temple. '.repeat(20)}`),
      page('Shirley Temple', 'Shirley Temple was an actress and diplomat.', '127.0.0.3'),
      page('Corliss Archer', 'Meet Corliss Archer is a radio series.', '127.0.0.4'),
    ];
    const bm25 = createBm25Index(pages, (p) => `${p.title} ${p.paragraphs.join(' ')}`);
    const web = await startFakeWeb({ pages, rank: (q) => bm25.search(q, 10).map((h) => h.doc) });
    try {
      const provider = createSearxngProvider({
        baseUrl: web.searchUrl.replace(/\/search$/, ''),
        logger: captureLogger().logger,
      });
      const hits = await provider.search('Shirley Temple diplomat', { language: 'en', limit: 10 });
      expect(hits.map((h) => h.title)).toEqual(['Shirley Temple', 'Kiss and Tell']);
      expect(hits[0]!.url).toBe(web.urlOf(pages[1]!));
      expect(hits[1]!.snippet.length).toBeLessThanOrEqual(200);
    } finally {
      await web.close();
    }
  });
});

describe('measuring rules of the evaluation', () => {
  it('puts a page on one of 8 loopback hosts by its title, the same every time', () => {
    const hosts = new Set(Array.from({ length: 200 }, (_, i) => hostOfTitle(`Page ${i}`)));
    expect([...hosts].sort()).toEqual(Array.from({ length: 8 }, (_, i) => `127.0.0.${i + 1}`));
    expect(hostOfTitle('Animorphs')).toBe(hostOfTitle('Animorphs'));
  });

  it('finds an answer as whole words, without case, punctuation or articles', () => {
    expect(normaliseText('The Hork-Bajir Chronicles, an "Animorphs" book!')).toBe(
      'hork bajir chronicles animorphs book',
    );
    expect(statesAnswer('It was published by Scholastic[1].', 'Scholastic')).toBe(true);
    expect(statesAnswer("Governor Nelson Rockefeller's committee", 'Nelson Rockefeller')).toBe(true);
    expect(statesAnswer('He served as the Chief of Protocol.', 'chief of protocol')).toBe(true);
    expect(statesAnswer('Scholastics books', 'Scholastic')).toBe(false);
    expect(statesAnswer('anything', '')).toBe(false);
  });

  it('counts an answer written in capitals only where the text writes it so', () => {
    expect(statesAnswer('none of their statements is about it', 'IT')).toBe(false);
    expect(statesAnswer('It flows north.', 'IT')).toBe(false);
    expect(statesAnswer('Tell us more.', 'US')).toBe(false);
    expect(statesAnswer('Exports to the US rose.', 'US')).toBe(true);
    expect(statesAnswer('Midway is located on U.S. Route 167.', 'U.S.')).toBe(true);
    expect(statesAnswer('the u.s. route', 'U.S.')).toBe(false);
    expect(statesAnswer('The Nasa probe', 'Nasa')).toBe(true);
  });

  it('counts an answer stated by one of its aliases', () => {
    const answers = ['Granville Stanley Hall', 'Stanley Hall', 'G. Stanley Hall'];
    expect(statesSomeAnswer('Its first president was G. Stanley Hall.', answers)).toBe(true);
    expect(statesSomeAnswer('Stanley Hall taught there.', answers)).toBe(true);
    expect(statesSomeAnswer('Hall taught there.', answers)).toBe(false);
    expect(statesSomeAnswer('anything', [])).toBe(false);
  });

  it('counts a short alias as a code written in capitals, not as the word it spells', () => {
    const item = {
      answer: 'seemingly in Italy',
      answer_aliases: ['IT', 'ITA', 'Italy', 'it', 'Mar'],
      supporting_facts: [],
      context: [],
    };
    const answers = answersOf(item as unknown as QaItem);
    expect(answers).toEqual(['seemingly in Italy', 'IT', 'ITA', 'Italy', 'MAR']);
    expect(statesSomeAnswer('None of their statements is about it.', answers)).toBe(false);
    expect(statesSomeAnswer('It began in Italy.', answers)).toBe(true);
    expect(statesSomeAnswer('Country code IT.', answers)).toBe(true);
  });

  it('counts the name a gold page goes by when the page writes the answer in full (its title, words left out)', () => {
    const item = {
      answer: 'Robert "Rob" Parissi',
      supporting_facts: [
        ['Rob Parissi', 0],
        ['Pepper Keenan', 0],
      ],
      context: [
        ['Rob Parissi', ['Robert "Rob" Parissi (born December 29, 1950) is an American musician.']],
        ['Pepper Keenan', ['Pepper Keenan (born February 13, 1967) is an American musician.']],
        ['Rob Parissi (album)', ['Robert "Rob" Parissi is its title.']],
      ],
    } as unknown as QaItem;
    expect(pageNames(item)).toEqual(['Rob Parissi']);
    expect(statesSomeAnswer('Rob Parissi was born first [1].', answersOf(item))).toBe(true);
    expect(statesSomeAnswer('Parissi was born first [1].', answersOf(item))).toBe(false);
    // A title with a word the answer lacks is another name; a page that does not write the answer gives none.
    expect(
      pageNames({
        ...item,
        answer: 'George Michael Dolenz',
        context: [['Micky Dolenz', ['George Michael Dolenz (born 1945)']]],
        supporting_facts: [['Micky Dolenz', 0]],
      } as unknown as QaItem),
    ).toEqual([]);
    expect(
      pageNames({
        ...item,
        context: [['Rob Parissi', ['Rob Parissi (born 1950) is a musician.']]],
      } as unknown as QaItem),
    ).toEqual([]);
  });

  it("takes the summary's first sentence up to its first citation, abbreviations and all", () => {
    expect(firstSentence('Dr. J. Smith wrote it in 1855 [1]. It sold well [2].')).toBe(
      'Dr. J. Smith wrote it in 1855 [1].',
    );
    expect(firstSentence('Tony Burke: he is a Labor member [1][2]. More [3].')).toBe(
      'Tony Burke: he is a Labor member [1][2].',
    );
    expect(firstSentence('No sourced statements on this question were found.')).toBe(
      'No sourced statements on this question were found.',
    );
  });

  it('reads a first sentence opening with a pronoun, a conjunction or a connective as leaning on another', () => {
    for (const leaning of [
      'Now research shows the opposite is true [F1].',
      'But a new report calls that into question [F1].',
      "It's also surprisingly dense [F1].",
      '“They said no,” the minister wrote [F1].',
      'The opposite is true [F1].',
    ])
      expect(standsAlone(leaning)).toBe(false);
    for (const alone of [
      'Feeding peanuts to babies early prevents a peanut allergy [F1].',
      'Thomas Edison patented it in 1880 [F1].',
      'Theodore Roosevelt won the election in 1904 [F1].',
      'For years, parents were told to wait [F1].',
    ])
      expect(standsAlone(alone)).toBe(true);
  });

  it('tells which of the report\'s "not found" sentences a summary opens with, in the product\'s own words', () => {
    const en = reportText('en');
    expect(notFoundOpening(en.notAnswered(12))).toBe('not_answered');
    expect(notFoundOpening(en.notAnswered(1))).toBe('not_answered');
    expect(notFoundOpening(en.noFindings)).toBe('no_findings');
    expect(notFoundOpening(`${en.answerNotFound} Abel Tasman sighted it in 1642 [1].`)).toBe('answer_not_found');
    expect(notFoundOpening('Abel Tasman sighted New Zealand in 1642 [1].')).toBeNull();
    expect(notFoundOpening(`Abel Tasman sighted it [1]. ${en.noFindings}`)).toBeNull();
    expect(notFoundOpening(reportText('de').noFindings, 'de')).toBe('no_findings');
  });

  it('counts a supporting sentence covered by a span of at least 3 of its words found in the paragraph', () => {
    const sentences = ['Animorphs is a science fantasy series.', ' It is told in first person.', ' It sold well.'];
    expect(sentencesCoveredBy('Animorphs is a science fantasy series.', sentences)).toEqual(new Set([0]));
    expect(sentencesCoveredBy('series. It is told', sentences)).toEqual(new Set([1]));
    expect(sentencesCoveredBy('told in first person. It sold', sentences)).toEqual(new Set([1]));
    expect(sentencesCoveredBy('It sold well', sentences)).toEqual(new Set([2]));
    expect(sentencesCoveredBy('Footer text of the site.', sentences)).toEqual(new Set());
  });
});

describeWithData('contradiction cases of the evaluation', CONTRADICTION_NEEDS, (dir) => {
  const cases = contradictionCases(dir);

  it('has every disputed claim of the dev file and 40 controls, each with two key pages on different hosts', () => {
    expect(cases.filter((c) => c.disputed).length).toBeGreaterThan(0);
    expect(cases.filter((c) => !c.disputed)).toHaveLength(40);
    for (const c of cases) {
      const hosts = c.pages.map((p) => p.host);
      expect(new Set(hosts).size).toBe(hosts.length);
      expect(c.pages.slice(0, 2)).toEqual(c.keyPages);
    }
    const addresses = cases.flatMap((c) => c.pages.map((p) => `${p.host}${p.path}`));
    expect(new Set(addresses).size).toBe(addresses.length);
  });

  it('takes the first N of each kind with a limit', () => {
    const limited = contradictionCases(dir, 1);
    expect(limited.map((c) => c.disputed)).toEqual([true, false]);
  });

  it("splits the disputed claims by a hash of the claim's id, and takes a part's controls from that part", () => {
    const [tune, check] = [contradictionCases(dir, undefined, 'tune'), contradictionCases(dir, undefined, 'check')];
    const disputed = (list: typeof cases) => list.filter((c) => c.disputed).map((c) => c.id);
    expect([...disputed(tune), ...disputed(check)].sort()).toEqual(disputed(cases).sort());
    expect(disputed(check).every((id) => partOf(id) === 'check')).toBe(true);
    for (const [name, part] of [
      ['tune', tune],
      ['check', check],
    ] as const) {
      // The check part holds fewer than 40 controls in all: it gets every one of them.
      const controls = part.filter((c) => !c.disputed);
      expect(controls.length).toBeGreaterThan(0);
      expect(controls.length).toBeLessThanOrEqual(40);
      expect(controls.every((c) => partOf(c.id) === name)).toBe(true);
    }
    expect(contradictionCases(dir, undefined, 'all')).toEqual(cases);
  });
});
