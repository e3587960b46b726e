import { hrefOf, parseRoute, type Route } from './router';

describe('the page places in the URL hash', () => {
  it('reads each place, and an unknown one as not found', () => {
    expect(parseRoute('')).toEqual({ name: 'ask' });
    expect(parseRoute('#/ask')).toEqual({ name: 'ask' });
    expect(parseRoute('#/runs')).toEqual({ name: 'runs', page: 1 });
    expect(parseRoute('#/runs?page=3')).toEqual({ name: 'runs', page: 3 });
    expect(parseRoute('#/runs?page=-2')).toEqual({ name: 'runs', page: 1 });
    expect(parseRoute('#/runs?q=bamboo%20shoots&page=2')).toEqual({ name: 'runs', page: 2, q: 'bamboo shoots' });
    expect(parseRoute('#/runs?q=%20%20')).toEqual({ name: 'runs', page: 1 });
    expect(parseRoute('#/runs/abc')).toEqual({ name: 'run', id: 'abc' });
    expect(parseRoute('#/admin')).toEqual({ name: 'admin' });
    expect(parseRoute('#/collections')).toEqual({ name: 'collections' });
    expect(parseRoute('#/collections/c1')).toEqual({ name: 'collection', id: 'c1' });
    expect(parseRoute('#/collections/c1/x')).toEqual({ name: 'not-found' });
    expect(parseRoute('#/runs/a/b')).toEqual({ name: 'not-found' });
    expect(parseRoute('#/elsewhere')).toEqual({ name: 'not-found' });
  });

  it('writes every place so that reading it back gives the same place', () => {
    const places: Route[] = [
      { name: 'ask' },
      { name: 'runs', page: 1 },
      { name: 'runs', page: 4 },
      { name: 'runs', page: 1, q: '"a phrase" & more' },
      { name: 'runs', page: 3, q: 'Bambus' },
      { name: 'run', id: 'id with/slash' },
      { name: 'admin' },
      { name: 'collections' },
      { name: 'collection', id: 'id with/slash' },
    ];
    for (const place of places) expect(parseRoute(hrefOf(place))).toEqual(place);
  });
});
