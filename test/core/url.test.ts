import { normalizeUrl } from '@research/core';

describe('normalizeUrl', () => {
  it('gives one address to the forms of one page, keeping the path as the server names it', () => {
    const variants = [
      'HTTPS://Example.ORG.:443/docs/?b=2&a=1#intro',
      'https://example.org/docs/?utm_source=rss&a=1&igshid=x&b=2&_ga=1',
      'https://user:pw@example.org/docs/?ref_src=twsrc&a=1&b=2',
    ];
    expect(variants.map(normalizeUrl)).toEqual(Array(3).fill('https://example.org/docs/?a=1&b=2'));
    expect(normalizeUrl('http://2130706433/a')).toBe('http://127.0.0.1/a');
  });

  it('gives null for what is no http or https address', () => {
    for (const raw of ['ftp://example.org/a', 'javascript:alert(1)', 'not a url', '', 'local:notes/a.md'])
      expect(normalizeUrl(raw)).toBeNull();
  });
});
