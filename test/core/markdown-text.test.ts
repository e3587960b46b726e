import { markdownToText } from '@research/core';
import { mainThreadCpuMs } from '../support/event-loop';

// Markdown is read from collection uploads (the crawler's extraction pool) and from LOCAL_CORPUS_DIR (on the
// main thread). Its reader's expressions once rescanned from every `[`, `![` or `<` to the end of the file:
// 1 MB of `[` took minutes.

const SIZE = 1024 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

const ORDINARY = fill(
  '# A heading\n\nSome *text* with a [link](https://example.org/a), ![an image](x.png), `code` and <b>tags</b>.\n\n' +
    '[ref]: https://example.org\n> quoted\n\n',
);

/** CPU time of the main thread for one reading (the machine's other work does not count). */
function readingCpuMs(markdown: string): number {
  const started = mainThreadCpuMs();
  markdownToText(markdown);
  return mainThreadCpuMs() - started;
}

describe('markdownToText', () => {
  it('reads ordinary Markdown: title from front matter, links and images as their text, definitions and tags gone', () => {
    expect(
      markdownToText(
        '\uFEFF---\ntitle: "The Title"\ndate: 2024-01-01\n---\n# Heading\n\n' +
          'A [link](https://example.org "t") and ![alt text](img.png), a **bold** and _light_ word, <span>x</span>.\n' +
          '\n[ref]: https://example.org/ref "Ref"\n> A quote\n\n\n\n```js\ncode();\n```\n',
      ),
    ).toEqual({
      title: 'The Title',
      // A definition takes the blank line before it along.
      text: 'Heading\n\nA link and alt text, a bold and light word, x.\nA quote\n\ncode();',
    });
  });

  it('takes the first level-one heading as the title, without its closing hashes, across a line break', () => {
    expect(markdownToText('Intro\n#   Setting up   ##  \nText').title).toBe('Setting up');
    expect(markdownToText('#\n\nNext line').title).toBe('Next line');
    expect(markdownToText('## Second level\ntext').title).toBeNull();
    expect(markdownToText('---\ntitle:   \n---\n# Fallback').title).toBe('Fallback');
  });

  it('keeps unclosed brackets, tags and definitions as text', () => {
    expect(markdownToText('[a](b [c] <d\n> e [f]: g ![h](i').text).toBe('[a](b [c] <d\ne [f]: g ![h](i');
    expect(markdownToText('x\n  \n[]: y\n[z]:w').text).toBe('x\n \n[]: y\n[z]:w');
  });

  it.each([
    ['[', fill('[')],
    ['![', fill('![')],
    ['](', fill('](')],
    ['[a](', fill('[a](')],
    ['[a]', fill('[a]')],
    ['<', fill('<')],
    ['<a', fill('<a')],
    ['*x', fill('*x')],
    [' *x', fill(' *x')],
    ['_x', fill('_x')],
    [' _x', fill(' _x')],
    ['line breaks', fill('\n')],
    ['\\n[', fill('\n[')],
    ['[x]:', fill('[x]:')],
    ['[a]: ', fill('[a]: ')],
    ['# lines', fill('#\n')],
    ['"# " lines', fill('# \n')],
    ['a heading of spaces', `# a${fill(' ')}b`],
    ['front matter without its end', `---\n${fill('a\n')}`],
    ['a front matter title of spaces', `---\ntitle: a${fill(' ')}b\n---\n`],
    ['> ', fill('> ')],
  ])('reads 1 MB of %s in time linear in its size (at most 10 times ordinary Markdown)', (_name, markdown) => {
    const baseline = Math.min(readingCpuMs(ORDINARY), readingCpuMs(ORDINARY));
    expect(readingCpuMs(markdown)).toBeLessThan(10 * Math.max(baseline, 20));
  });
});
