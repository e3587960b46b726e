import { answerSearch } from '../../scripts/eval/protocol';
import type { QaItem } from '../../scripts/eval/question-sets';
import { unanswerableWorld } from '../../scripts/eval/unanswerable';

/** A question with one paragraph per title, the first title its one gold page. */
const item = (id: string, question: string, answer: string, titles: Array<[string, string]>): QaItem => ({
  _id: id,
  question,
  answer,
  supporting_facts: [[titles[0]![0], 0]],
  context: titles.map(([title, text]) => [title, [text]]),
});

describe('the world of unanswerable questions', () => {
  const set = [
    item('a', 'Who directed the film Arrival?', 'Denis Villeneuve', [
      ['Arrival (film)', 'Arrival is a 2016 film directed by Denis Villeneuve.'],
      ['Sicario', 'Sicario is a 2015 thriller.'],
    ]),
    item('b', 'Which city hosts the Seattle Art Museum?', 'Seattle', [
      ['Seattle Art Museum', 'The Seattle Art Museum is in Seattle.'],
      ['Incendies', 'Incendies was directed by Denis Villeneuve.'],
    ]),
    item('c', 'Were Sicario and Incendies made in one year?', 'no', [['Sicario', 'Sicario is a 2015 thriller.']]),
  ];
  const { pages, items, leftOut } = unanswerableWorld(set, 'all');

  it("takes out every question's gold pages, even where another question has them as distractors", () => {
    expect(pages.map((p) => p.title)).toEqual(['Incendies']);
  });

  it('asks only the open questions whose answer no page left and not the question itself writes', () => {
    // "a": Denis Villeneuve is still written on the page "Incendies"; "b": Seattle is in the question; "c": yes/no.
    expect(items).toEqual([]);
    expect(leftOut).toBe(2);
    expect(unanswerableWorld([set[1]!, set[2]!], 'all').items).toEqual([]);
    const asked = unanswerableWorld([set[0]!, set[2]!], 'all');
    expect(asked.pages.map((p) => p.title)).toEqual([]);
    expect(asked.items.map((i) => i._id)).toEqual(['a']);
    expect(asked.leftOut).toBe(0);
  });
});

describe('answerSearch', () => {
  it('finds each answer as statesAnswer does, codes only in capitals', () => {
    const inText = answerSearch('The US team, led by the Arrival director, met it in Oslo.');
    expect(inText('Oslo')).toBe(true);
    expect(inText('US')).toBe(true);
    expect(inText('IT')).toBe(false);
    expect(inText('the Arrival')).toBe(true);
    expect(inText('Arriv')).toBe(false);
  });
});
