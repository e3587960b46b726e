import { answerKindOf, bridgeQueries, fitsAnswer } from '@research/engine';

// What kind of answer a question asks for, and whether a sentence holds one it does not already give.
describe('answer kinds', () => {
  it('reads the kind of answer from the question words, in the service languages', () => {
    expect(answerKindOf('In what year did the bridge open to traffic?')).toBe('year');
    expect(answerKindOf('Wann wurde die Brücke eröffnet?')).toBe('year');
    expect(answerKindOf('How many people can the stadium seat?')).toBe('number');
    expect(answerKindOf('Combien de personnes vivent à Lyon ?')).toBe('number');
    expect(answerKindOf('Who designed the lighthouse on the northern cape?')).toBe('name');
    expect(answerKindOf('¿Dónde nació la pintora?')).toBe('name');
    expect(answerKindOf('Remote work lowers productivity')).toBe('open');
  });

  it('counts only an answer the question does not give', () => {
    const q = 'In what year did the 1998 expedition reach the summit?';
    expect(fitsAnswer('The expedition of 1998 reached the summit in 2001.', 'year', q)).toBe(true);
    expect(fitsAnswer('The 1998 expedition was long and cold.', 'year', q)).toBe(false);
    const n = 'How many seats does the Riverside Arena have after its 2010 rebuild?';
    expect(fitsAnswer('After the 2010 rebuild the arena holds 4,200 spectators.', 'number', n)).toBe(true);
    expect(fitsAnswer('The arena was rebuilt in 2010.', 'number', n)).toBe(false);
    const w = 'Who founded the Marlow Rowing Club?';
    expect(fitsAnswer('The club was founded by Edith Carrow and her brother.', 'name', w)).toBe(true);
    expect(fitsAnswer('The Marlow Rowing Club rows on the river.', 'name', w)).toBe(false);
  });
});

describe('second-hop names', () => {
  it('finds the names the best sentences give that the question does not, several words first', async () => {
    const names = await bridgeQueries({
      question: 'Where was the architect of the Harbour Library born?',
      language: 'en',
      limit: 3,
      sources: [
        {
          title: 'Harbour Library',
          content:
            'The Harbour Library was designed by the architect Ilse Marten with the engineer Paul Roder in 1931. ' +
            'The Harbour Library holds maps of the Baltic coast. Visitors come from Denmark every summer.',
        },
        { title: 'Ilse Marten', content: 'Ilse Marten studied in Vienna.' },
      ],
    });
    // Ilse Marten's page is already read and the library is the question's own: neither is searched; the
    // other names of the sentences about the library are, a name of two words before a lone word, and
    // nothing from the sentence that does not concern the question (Denmark).
    expect(names).toEqual(['Paul Roder', 'Baltic']);
  });
});
