import { mapInBlocks, normalizeWhitespace, normalizeWhitespaceSliced } from '@research/core';

/** About 1.4 MB of words and whitespace of every kind, with a word and a run longer than a block. */
function mixedText(): string {
  const words = ['ΟΔΟΣ', 'ΣΟΦΟΣ', 'Straße', 'İstanbul', '𐐀𐐁𐐂', 'word'];
  const gaps = [' ', '  ', '\n', '\t \n', '\u00a0', '\r\n\r\n'];
  const parts: string[] = ['  '];
  let seed = 7;
  const next = (n: number) => Math.floor(((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31) * n);
  for (let i = 0; i < 120_000; i++) {
    parts.push(words[next(words.length)]!, gaps[next(gaps.length)]!);
    if (i === 40_000) parts.push('x'.repeat(300_000), ' ');
    if (i === 80_000) parts.push(' \n'.repeat(150_000));
  }
  return parts.join('');
}

describe('text in blocks', () => {
  const text = mixedText();

  it('normalises whitespace of a long text in slices as at once', async () => {
    expect(text.length).toBeGreaterThan(1_000_000);
    let pauses = 0;
    const sliced = await normalizeWhitespaceSliced(text, async () => void pauses++);
    expect(sliced).toBe(normalizeWhitespace(text));
    expect(pauses).toBeGreaterThanOrEqual(4);
  });

  it('lower-cases a long text in blocks as at once (a cut inside a word would change its sigmas or split a pair)', async () => {
    // "ΣΣ|Σ" lower-cases to "σς" + "σ", not "σσς"; a lone surrogate of "𐐀" stays as it is.
    const words = `${'Σ'.repeat(20)}${'𐐀'.repeat(10)}${'Σ'.repeat(10)} `.repeat(20_000);
    expect(await mapInBlocks(words, (block) => block.toLowerCase())).toBe(words.toLowerCase());
    expect(await mapInBlocks(text, (block) => block.toLowerCase())).toBe(text.toLowerCase());
  });

  it('gives every character to exactly one block, each cut where a word ends', async () => {
    const blocks: string[] = [];
    await mapInBlocks(text, (block) => (blocks.push(block), block));
    expect(blocks.join('')).toBe(text);
    for (const block of blocks.slice(0, -1)) expect(block).toMatch(/\S$/);
    for (const block of blocks.slice(1)) expect(block).toMatch(/^\s/);
  });
});
