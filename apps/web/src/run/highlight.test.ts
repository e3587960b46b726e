import { highlightSpan } from './highlight';

/** The span as the API means it: code points, as Python slices them. */
function byCodePoints(text: string, start: number, end: number): string {
  return Array.from(text).slice(start, end).join('');
}

describe('highlightSpan', () => {
  // Two astral characters (one code point, two UTF-16 units each) and a combining accent (its own code
  // point) before the span.
  const text = 'Zu 😀 Beginn 🇩🇪 e\u0301te: Solar lieferte 12 % des Stroms. Danach mehr.';
  const quote = 'Solar lieferte 12 % des Stroms.';
  const start = Array.from(text).findIndex((_, i, all) => all.slice(i).join('').startsWith(quote));
  const end = start + Array.from(quote).length;

  it('marks the span counted in code points, not UTF-16 units', () => {
    expect(start).not.toBe(text.indexOf(quote)); // the test means something only if the two differ
    const h = highlightSpan(text, start, end, null);
    expect(h.marked).toBe(quote);
    expect(h.marked).toBe(byCodePoints(text, start, end));
    expect(h.before + h.marked + h.after).toBe(text);
    expect(h.before.endsWith('e\u0301te: ')).toBe(true);
  });

  it('never cuts a surrogate pair when the span starts or ends on an astral character', () => {
    const emoji = Array.from(text).indexOf('😀');
    expect(highlightSpan(text, emoji, emoji + 1).marked).toBe('😀');
    const flag = Array.from(text).indexOf('🇩'); // a flag is two code points, each astral
    expect(highlightSpan(text, flag, flag + 2).marked).toBe('🇩🇪');
  });

  it('clamps offsets past either end of the text', () => {
    const length = Array.from(text).length;
    expect(highlightSpan(text, -5, 2).marked).toBe('Zu');
    expect(highlightSpan(text, length - 5, length + 100).marked).toBe('mehr.');
  });

  it('falls back to the quote when the offsets are null, reversed or past the end', () => {
    for (const [s, e] of [
      [null, null],
      [end, start],
      [10_000, 10_010],
      [1.5, 4],
    ] as const) {
      const h = highlightSpan(text, s, e, quote);
      expect(h.marked).toBe(quote);
      expect(h.before + h.marked + h.after).toBe(text);
    }
  });

  it('finds a quote whose white space differs from the text', () => {
    const h = highlightSpan('Solar  lieferte\n12 %\tdes Stroms.', null, null, ' Solar lieferte 12 % des Stroms. ');
    expect(h.marked).toBe('Solar  lieferte\n12 %\tdes Stroms.');
  });

  it('marks nothing when neither the offsets nor the quote place the span', () => {
    expect(highlightSpan(text, null, null, 'not in the text')).toEqual({ before: text, marked: null, after: '' });
    expect(highlightSpan(text, null, null, null)).toEqual({ before: text, marked: null, after: '' });
  });
});
