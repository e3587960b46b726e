import { fieldProblemOf } from './field-problem';

const FIELDS = ['query', 'include_domains', 'published_after'];

describe('reading a 422 detail as the field it names', () => {
  it('names the field and keeps the reason', () => {
    expect(fieldProblemOf('query: Required', FIELDS)).toEqual({ field: 'query', message: 'Required' });
    expect(fieldProblemOf('published_after: must be a date YYYY-MM-DD (a day of the calendar)', FIELDS)).toEqual({
      field: 'published_after',
      message: 'must be a date YYYY-MM-DD (a day of the calendar)',
    });
  });

  it('counts a list entry from 1 and keeps the reason whole, colons and all', () => {
    expect(
      fieldProblemOf('include_domains.2: must be a host name or IP address (no scheme, path or port)', FIELDS),
    ).toEqual({
      field: 'include_domains',
      message: 'Entry 3: must be a host name or IP address (no scheme, path or port)',
    });
    expect(fieldProblemOf('query: odd: reason', FIELDS)).toEqual({ field: 'query', message: 'odd: reason' });
  });

  it('names no field for a field the form lacks or a detail of another shape', () => {
    expect(fieldProblemOf('max_sources: must be at most 15 for depth quick', FIELDS)).toBeNull();
    expect(fieldProblemOf("Ungültige Tiefe 'abyssal'. Gültig: 'quick', 'normal', 'deep'.", FIELDS)).toBeNull();
    expect(fieldProblemOf('Research run 1 not found', FIELDS)).toBeNull();
  });
});
