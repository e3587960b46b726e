import { documentTitle } from './document-title';

describe('the tab title', () => {
  it('names what the page shows first and the service last, on one line', () => {
    expect(documentTitle('Does early peanut feeding\n  prevent allergy?')).toBe(
      'Does early peanut feeding prevent allergy? — Research',
    );
    expect(documentTitle('  ')).toBe('Research');
  });
});
