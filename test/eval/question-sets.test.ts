import { paragraphText, partOf, stableHash } from '../../scripts/eval/protocol';
import {
  MULTIHOP_SETS,
  QUESTION_SETS,
  itemsOfPart,
  qaPages,
  questionSet,
  readQuestionSet,
  type QaItem,
} from '../../scripts/eval/question-sets';
import { describeWithData } from '../support/data-dir';

const item = (id: string, context: QaItem['context'], supporting: QaItem['supporting_facts'] = []): QaItem => ({
  _id: id,
  question: `question ${id}`,
  answer: 'answer',
  type: 'bridge',
  supporting_facts: supporting,
  context,
});

describe('split of a question set into tune and check', () => {
  const ids = Array.from({ length: 3000 }, (_, i) => `id-${i}`);

  it('puts an id in check when the first 32 bits of its SHA-256 are a multiple of 3, the same every time', () => {
    for (const id of ids.slice(0, 50)) {
      expect(partOf(id)).toBe(stableHash(id) % 3 === 0 ? 'check' : 'tune');
      expect(partOf(id)).toBe(partOf(id));
    }
  });

  it('sends about one third to check', () => {
    const check = ids.filter((id) => partOf(id) === 'check').length;
    expect(check / ids.length).toBeGreaterThan(0.3);
    expect(check / ids.length).toBeLessThan(0.367);
  });

  it("keeps an item's part whatever the order and whatever else the set holds", () => {
    const items = ids.slice(0, 300).map((id) => ({ id }));
    const check = itemsOfPart(items, 'check', (i) => i.id).map((i) => i.id);
    const reversed = itemsOfPart([...items].reverse(), 'check', (i) => i.id).map((i) => i.id);
    const fewer = itemsOfPart(items.slice(100), 'check', (i) => i.id).map((i) => i.id);
    expect(reversed).toEqual([...check].reverse());
    expect(fewer).toEqual(check.filter((id) => items.slice(100).some((i) => i.id === id)));
  });

  it('gives the two parts apart and whole, in the set order, and every item for all', () => {
    const items = ids.slice(0, 100).map((id) => ({ id }));
    const tune = itemsOfPart(items, 'tune', (i) => i.id);
    const check = itemsOfPart(items, 'check', (i) => i.id);
    expect(tune.length + check.length).toBe(100);
    expect(tune.filter((i) => check.includes(i))).toEqual([]);
    expect(itemsOfPart(items, 'all', (i) => i.id)).toEqual(items);
    expect(tune).toEqual(items.filter((i) => tune.includes(i)));
  });
});

describe('page text of a paragraph', () => {
  it('puts a space between sentences that carry none (2WikiMultihopQA)', () => {
    expect(
      paragraphText(['Dana Blankstein- Cohen( born March 3, 1981) is a director.', 'She is an entrepreneur.']),
    ).toBe('Dana Blankstein- Cohen( born March 3, 1981) is a director. She is an entrepreneur.');
  });

  it("joins HotpotQA's sentences as given, also where its splitter cut inside a quotation", () => {
    const sentences = [
      'Appetite was released in 1987, after the EP "Live ?!',
      '*@ Like a Suicide" a year before.',
      ' It sold well.',
    ];
    expect(paragraphText(sentences)).toBe(sentences.join(''));
    expect(paragraphText(['One sentence. ', ' '])).toBe('One sentence.');
  });

  it('adds no second space beside whitespace a sentence already has', () => {
    expect(paragraphText(['First. ', 'Second.', 'Third.'])).toBe('First. Second. Third.');
    expect(paragraphText(['Only one paragraph.'])).toBe('Only one paragraph.');
  });
});

describe('pages of a question set', () => {
  it('makes one page per title, first text first; another paragraph of a title joins its page, a whitespace variant does not', () => {
    const pages = qaPages(
      [
        item('a', [
          ['Seattle', ['Seattle is a city.']],
          ['Harry Morgan', ['Harry Morgan was an\u00a0actor.']],
        ]),
        item('b', [
          ['Seattle', ['The Seattle Art Museum opened in 1933.']],
          ['Harry Morgan', ['Harry Morgan was an actor.']],
          ['Seattle', ['Seattle is a city.']],
        ]),
      ],
      (_title, n) => `127.0.0.${n + 1}`,
    );
    expect(pages).toEqual([
      {
        host: '127.0.0.1',
        path: '/seattle',
        title: 'Seattle',
        paragraphs: ['Seattle is a city.', 'The Seattle Art Museum opened in 1933.'],
      },
      {
        host: '127.0.0.2',
        path: '/harry-morgan',
        title: 'Harry Morgan',
        paragraphs: ['Harry Morgan was an\u00a0actor.'],
      },
    ]);
  });

  it('gives two titles that would share an address on one host different paths', () => {
    const pages = qaPages(
      [
        item('a', [
          ['A.B', ['x']],
          ['A B', ['y']],
        ]),
      ],
      () => '127.0.0.1',
    );
    expect(pages.map((p) => p.path)).toEqual(['/a-b', '/a-b-2']);
  });
});

describe('registry of question sets', () => {
  it('names each set once with its file, and refuses an unknown name naming the known ones', () => {
    expect(questionSet('musique-train')).toEqual({
      name: 'musique-train',
      file: 'qa/musique-train/questions.json',
      defaultPart: 'tune',
    });
    expect(questionSet('hotpotqa-dev').defaultPart).toBe('all');
    expect(() => questionSet('hotpotqa-test')).toThrow(
      'unknown question set hotpotqa-test: one of hotpotqa-dev, hotpotqa-dev-large, 2wikimultihopqa-train, musique-train',
    );
    expect(() => questionSet('toString')).toThrow('unknown question set toString');
    expect(MULTIHOP_SETS.every((name) => questionSet(name).defaultPart === 'tune')).toBe(true);
  });
});

describeWithData(
  'question sets of the data directory',
  Object.values(QUESTION_SETS).map((set) => set.file),
  (dir) => {
    it.each(Object.keys(QUESTION_SETS))(
      '%s: every question in HotpotQA schema with its gold pages in its context',
      (name) => {
        const items = readQuestionSet(dir, name);
        expect(new Set(items.map((i) => i._id)).size).toBe(items.length);
        for (const i of items) {
          expect(typeof i.question).toBe('string');
          expect(typeof i.answer).toBe('string');
          const titles = new Set(i.context.map(([title]) => title));
          for (const [title] of i.supporting_facts) expect(titles.has(title)).toBe(true);
        }
      },
    );

    it('hotpotqa-dev: each page holds its sentences exactly as joined before (byte for byte)', () => {
      const items = readQuestionSet(dir, 'hotpotqa-dev');
      const pages = qaPages(items, () => '127.0.0.1');
      const first = new Map<string, string>();
      for (const i of items)
        for (const [title, s] of i.context) if (!first.has(title)) first.set(title, s.join('').trim());
      expect(pages.map((p) => [p.title, p.paragraphs])).toEqual([...first].map(([title, text]) => [title, [text]]));
    });

    it('2wikimultihopqa-train: sentences are apart by one space', () => {
      const items = readQuestionSet(dir, '2wikimultihopqa-train');
      const pages = new Map(qaPages(items, () => '127.0.0.1').map((p) => [p.title, p.paragraphs[0]]));
      const [title, sentences] = items[0]!.context.find(([, s]) => s.length > 1)!;
      expect(pages.get(title)).toBe(sentences.join(' '));
    });

    it('splits a set of over a thousand questions about one third to check', () => {
      const items = readQuestionSet(dir, 'hotpotqa-dev-large');
      const check = itemsOfPart(items, 'check', (i) => i._id).length;
      expect(check / items.length).toBeGreaterThan(0.3);
      expect(check / items.length).toBeLessThan(0.367);
    });
  },
);
