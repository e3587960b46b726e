import { codePointIndex, contentSha256, evidenceSpanProblem, locateQuote } from '@research/core';

/** text[start:end] in code points, as a Python client reads it. */
function sliceCodePoints(text: string, start: number, end: number): string {
  return Array.from(text).slice(start, end).join('');
}

describe('evidence spans', () => {
  const text = 'Intro 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 😀 line one\nends here.\n\nThe  quote spans\na line break, (really) [sic].';

  it('finds a quote verbatim, and across line breaks and double spaces as the text writes it', () => {
    const verbatim = locateQuote(text, 'line one');
    expect(text.slice(verbatim!.start, verbatim!.end)).toBe('line one');
    const across = locateQuote(text, 'line one ends here. The quote spans a line break, (really) [sic].');
    expect(text.slice(across!.start, across!.end)).toBe(
      'line one\nends here.\n\nThe  quote spans\na line break, (really) [sic].',
    );
    expect(locateQuote(text, '  The quote\tspans  ')).not.toBeNull();
    expect(locateQuote(text, 'not in the text')).toBeNull();
    expect(locateQuote(text, ' \n ')).toBeNull();
    // Regular expression syntax in a quote is text.
    expect(locateQuote(text, '(really) [sic].')).not.toBeNull();
    expect(locateQuote(text, 'really.*sic')).toBeNull();
  });

  it('counts offsets in code points, so a client outside JavaScript slices the same passage', () => {
    const index = codePointIndex(text);
    expect(index.length).toBe(Array.from(text).length);
    const at = locateQuote(text, 'line one ends here.')!;
    const start = index.toCodePoint(at.start);
    const end = index.toCodePoint(at.end);
    expect(start).toBeLessThan(at.start); // characters beyond the BMP before it
    expect(sliceCodePoints(text, start, end)).toBe('line one\nends here.');
    expect(index.toUtf16(start)).toBe(at.start);
    expect(index.toUtf16(end)).toBe(at.end);
    for (let cp = 0; cp <= index.length; cp++) expect(index.toCodePoint(index.toUtf16(cp))).toBe(cp);
  });

  it('says why a stored span does not hold', () => {
    const index = codePointIndex(text);
    const at = locateQuote(text, 'line one')!;
    const claim = {
      evidence_span: 'line one',
      span_start: index.toCodePoint(at.start),
      span_end: index.toCodePoint(at.end),
    };
    expect(evidenceSpanProblem(text, claim)).toBeNull();
    expect(evidenceSpanProblem(text, { ...claim, span_start: claim.span_start + 1 })).toMatch(
      /is not the evidence span/,
    );
    expect(evidenceSpanProblem(text, { ...claim, span_end: 10_000 })).toMatch(/does not lie within/);
    expect(evidenceSpanProblem(text, { ...claim, span_start: null })).toMatch(/no span stored/);
  });

  it('hashes the UTF-8 bytes of a text', () => {
    expect(contentSha256('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(contentSha256('é')).not.toBe(contentSha256('é'.normalize('NFD')));
  });
});
