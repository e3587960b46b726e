import { pageCount, pageWindow } from './paging';

describe('paging the runs', () => {
  it('counts the pages, one for an empty list', () => {
    expect(pageCount(0)).toBe(1);
    expect(pageCount(1)).toBe(1);
    expect(pageCount(10)).toBe(1);
    expect(pageCount(11)).toBe(2);
    expect(pageCount(95)).toBe(10);
    expect(pageCount(7, 3)).toBe(3);
  });

  it('asks for ten runs from the page’s first', () => {
    expect(pageWindow(1)).toEqual({ offset: 0, limit: 10 });
    expect(pageWindow(3)).toEqual({ offset: 20, limit: 10 });
    expect(pageWindow(0)).toEqual({ offset: 0, limit: 10 });
  });
});
