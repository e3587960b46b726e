import { normalizeUrl } from '@research/search';

describe('normalizeUrl', () => {
  it('lower-cases scheme and host and drops default ports, fragments and credentials', () => {
    expect(normalizeUrl('HTTPS://User:pw@Example.ORG:443/Path/Page#section')).toBe('https://example.org/Path/Page');
    expect(normalizeUrl('http://example.org:80/a')).toBe('http://example.org/a');
    expect(normalizeUrl('http://example.org:8080/a')).toBe('http://example.org:8080/a');
    expect(normalizeUrl('https://example.org./a')).toBe('https://example.org/a');
  });

  it('sorts query parameters and removes utm_* and click ids', () => {
    expect(normalizeUrl('https://example.org/a?b=2&utm_source=news&a=1&UTM_Medium=x&gclid=abc&fbclid=z')).toBe(
      'https://example.org/a?a=1&b=2',
    );
    expect(normalizeUrl('https://example.org/a?utm_campaign=x')).toBe('https://example.org/a');
    expect(normalizeUrl('https://example.org/a?x=2&x=1')).toBe('https://example.org/a?x=2&x=1');
  });

  it('drops a trailing slash except on the root path', () => {
    expect(normalizeUrl('https://example.org/docs/')).toBe('https://example.org/docs');
    expect(normalizeUrl('https://example.org/docs//')).toBe('https://example.org/docs');
    expect(normalizeUrl('https://example.org')).toBe('https://example.org/');
    expect(normalizeUrl('https://example.org/')).toBe('https://example.org/');
  });

  it('makes equivalent addresses equal', () => {
    const variants = [
      'https://Example.org/wiki/Photosynthesis/',
      'https://example.org:443/wiki/Photosynthesis#History',
      'https://example.org/wiki/Photosynthesis?utm_source=rss',
    ];
    expect(new Set(variants.map(normalizeUrl)).size).toBe(1);
  });

  it('keeps local corpus URLs and refuses other schemes and garbage', () => {
    expect(normalizeUrl('local:notes/a%20b.md')).toBe('local:notes/a%20b.md');
    expect(normalizeUrl('local:')).toBeNull();
    expect(normalizeUrl('ftp://example.org/a')).toBeNull();
    expect(normalizeUrl('javascript:alert(1)')).toBeNull();
    expect(normalizeUrl('not a url')).toBeNull();
    expect(normalizeUrl('')).toBeNull();
  });
});
