import { hitUrlKey } from '@research/search';

describe('hitUrlKey', () => {
  it('lower-cases scheme and host and drops default ports, fragments and credentials', () => {
    expect(hitUrlKey('HTTPS://User:pw@Example.ORG:443/Path/Page#section')).toBe('https://example.org/Path/Page');
    expect(hitUrlKey('http://example.org:80/a')).toBe('http://example.org/a');
    expect(hitUrlKey('http://example.org:8080/a')).toBe('http://example.org:8080/a');
    expect(hitUrlKey('https://example.org./a')).toBe('https://example.org/a');
  });

  it('sorts query parameters and removes utm_* and click ids', () => {
    expect(hitUrlKey('https://example.org/a?b=2&utm_source=news&a=1&UTM_Medium=x&gclid=abc&fbclid=z')).toBe(
      'https://example.org/a?a=1&b=2',
    );
    expect(hitUrlKey('https://example.org/a?utm_campaign=x')).toBe('https://example.org/a');
    expect(hitUrlKey('https://example.org/a?x=2&x=1')).toBe('https://example.org/a?x=2&x=1');
  });

  it('drops a trailing slash except on the root path', () => {
    expect(hitUrlKey('https://example.org/docs/')).toBe('https://example.org/docs');
    expect(hitUrlKey('https://example.org/docs//')).toBe('https://example.org/docs');
    expect(hitUrlKey('https://example.org')).toBe('https://example.org/');
    expect(hitUrlKey('https://example.org/')).toBe('https://example.org/');
  });

  it('makes equivalent addresses equal', () => {
    const variants = [
      'https://Example.org/wiki/Photosynthesis/',
      'https://example.org:443/wiki/Photosynthesis#History',
      'https://example.org/wiki/Photosynthesis?utm_source=rss',
    ];
    expect(new Set(variants.map(hitUrlKey)).size).toBe(1);
  });

  it('keeps local corpus URLs and refuses other schemes and garbage', () => {
    expect(hitUrlKey('local:notes/a%20b.md')).toBe('local:notes/a%20b.md');
    expect(hitUrlKey('local:')).toBeNull();
    expect(hitUrlKey('ftp://example.org/a')).toBeNull();
    expect(hitUrlKey('javascript:alert(1)')).toBeNull();
    expect(hitUrlKey('not a url')).toBeNull();
    expect(hitUrlKey('')).toBeNull();
  });
});
