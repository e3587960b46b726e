import { formatLocalTime } from './LocalTime';

describe('times in the reader’s locale', () => {
  it('formats by locale and zone, and leaves a text that is no time as it is', () => {
    expect(formatLocalTime('2026-03-01T09:30:00.000Z', 'en-GB', 'Europe/Berlin')).toBe('1 Mar 2026, 10:30');
    expect(formatLocalTime('2026-03-01T09:30:00.000Z', 'de-DE', 'UTC')).toBe('01.03.2026, 09:30');
    expect(formatLocalTime('not a time')).toBe('not a time');
  });
});
