import { allowsUrl, controlHost, isCalendarDate, publicationVerdict, readSourceControls } from '@research/core';

const controls = (fields: Partial<Parameters<typeof allowsUrl>[0]>) => ({
  include_domains: [],
  exclude_domains: [],
  published_after: null,
  max_sources: null,
  ...fields,
});

describe('source controls', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Sub.Example.COM', 'sub.example.com'],
    ['localhost', 'localhost'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['192.168.0.1', '192.168.0.1'],
    ['[::1]', '::1'],
    ['2001:DB8:0:0::1', '2001:db8::1'],
  ])('reads %s as the host %s', (value, host) => {
    expect(controlHost(value)).toBe(host);
  });

  it.each([
    'https://example.com',
    'example.com/',
    'example.com:443',
    'user@example.com',
    '*.example.com',
    'exa mple.com',
    '-example.com',
    'example-.com',
    'a..b',
    '.example.com',
    '1.2.3',
    '256.1.1.1',
    'example.123',
    `${'a'.repeat(64)}.com`,
    '',
  ])('refuses %j', (value) => {
    expect(controlHost(value)).toBeNull();
  });

  it('matches a host name and its subdomains, never a longer name that ends the same', () => {
    const only = controls({ include_domains: ['example.com'] });
    expect(allowsUrl(only, 'https://example.com/a')).toBe(true);
    expect(allowsUrl(only, 'https://a.b.example.com/a')).toBe(true);
    expect(allowsUrl(only, 'https://badexample.com/a')).toBe(false);
    expect(allowsUrl(only, 'https://example.com.evil.org/a')).toBe(false);
    expect(allowsUrl(only, 'https://EXAMPLE.com./a')).toBe(true);
    const not = controls({ exclude_domains: ['blog.example.com', '10.0.0.1', '::1'] });
    expect(allowsUrl(not, 'https://blog.example.com/x')).toBe(false);
    expect(allowsUrl(not, 'https://example.com/x')).toBe(true);
    expect(allowsUrl(not, 'http://10.0.0.1/x')).toBe(false);
    expect(allowsUrl(not, 'http://[::1]:8080/x')).toBe(false);
  });

  it('refuses a source dated before published_after, keeps one of that day or later, and calls an unreadable date undated', () => {
    const after = { published_after: '2024-01-01' };
    expect(publicationVerdict(after, '2023-12-31T23:59:59Z')).toBe('before');
    expect(publicationVerdict(after, '2024-01-01')).toBe('ok');
    expect(publicationVerdict(after, '2025-06-01T10:00:00+02:00')).toBe('ok');
    expect(publicationVerdict(after, null)).toBe('undated');
    expect(publicationVerdict(after, 'last Tuesday')).toBe('undated');
    expect(publicationVerdict({ published_after: null }, '1990-01-01')).toBe('ok');
  });

  it('checks calendar dates', () => {
    expect(isCalendarDate('2024-02-29')).toBe(true);
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2026-02-30')).toBe(false);
    expect(isCalendarDate('2026-13-01')).toBe(false);
  });

  it('reads stored controls, leaving out what cannot be read, and none when nothing restricts', () => {
    expect(readSourceControls(null)).toBeNull();
    expect(readSourceControls({ include_domains: [], exclude_domains: [] })).toBeNull();
    expect(
      readSourceControls({
        include_domains: ['Example.com', 'not a host'],
        published_after: '2024-02-30',
        max_sources: 3,
      }),
    ).toEqual(controls({ include_domains: ['example.com'], max_sources: 3 }));
  });
});
