import { retryAfterMs } from '@research/search';

describe('retryAfterMs', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');

  it('reads Retry-After in seconds or as an HTTP date', () => {
    expect(retryAfterMs({ 'retry-after': '2' }, now)).toBe(2000);
    expect(retryAfterMs({ 'retry-after': 'Wed, 01 Jan 2025 00:00:05 GMT' }, now)).toBe(5000);
    expect(retryAfterMs({ 'retry-after': 'Tue, 31 Dec 2024 23:00:00 GMT' }, now)).toBe(0);
  });

  it("reads Brave's X-RateLimit-Reset for the windows that are spent", () => {
    expect(retryAfterMs({ 'x-ratelimit-reset': '1, 1419704', 'x-ratelimit-remaining': '0, 900' }, now)).toBe(1000);
    expect(retryAfterMs({ 'x-ratelimit-reset': '1, 1419704', 'x-ratelimit-remaining': '1, 0' }, now)).toBe(
      1_419_704_000,
    );
  });

  it('gives undefined when the answer says nothing', () => {
    expect(retryAfterMs({}, now)).toBeUndefined();
    expect(retryAfterMs({ 'retry-after': 'soon' }, now)).toBeUndefined();
  });
});
