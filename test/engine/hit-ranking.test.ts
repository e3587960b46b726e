import { FIT_FLOOR, LINK_WEIGHT, queryRoles, rankPool, type PoolHit } from '@research/engine';
import { hitUrlKey } from '@research/search';
import { poolHit } from '../support/pool-hit';

// The fetch step's pool: every hit of every query the run sent, ranked for the question before each hop; a
// pure function of the hits and the queries' roles. Pages are told apart as the fetch step tells them (hitUrlKey).
const QUESTION = 'When was the cape lighthouse built?';
const run = (query = QUESTION, extra: string[] | null = null) => ({ query, language: 'en', extra_queries: extra });
const hit = poolHit;
const order = (
  hits: PoolHit[],
  names = new Map<string, { name: string; weight: number }>(),
  exclude = new Set<string>(),
) => {
  const roles = queryRoles(run(), new Set(hits.map((h) => h.query)), names);
  return rankPool(QUESTION, hits, roles, { pageKey: hitUrlKey, exclude }).map((c) => c.hit.url);
};

describe('the candidate pool', () => {
  it("ranks a hit whose title and snippet hold the question above one that holds none of it, the question's ranks otherwise", () => {
    const hits = [
      hit(QUESTION, 1, 'https://a.example/pancakes', 'Easy pancakes', 'Flour, eggs and milk.'),
      hit(QUESTION, 2, 'https://b.example/lighthouse', 'Cape lighthouse', 'The cape lighthouse was built in 1871.'),
      hit(QUESTION, 3, 'https://c.example/cape', 'Cape Point', 'A lighthouse stands on the cape.'),
    ];
    expect(order(hits)).toEqual([
      'https://b.example/lighthouse',
      'https://c.example/cape',
      'https://a.example/pancakes',
    ]);
  });

  it("fuses every query's list: a page two queries found rises above one a single query found at the same rank", () => {
    const hits = [
      hit(QUESTION, 1, 'https://a.example/one', 'Cape lighthouse one', 'The cape lighthouse.'),
      hit(QUESTION, 2, 'https://b.example/two', 'Cape lighthouse two', 'The cape lighthouse.'),
      hit('cape lighthouse history', 1, 'https://b.example/two', 'Cape lighthouse two', 'The cape lighthouse.'),
    ];
    expect(order(hits)).toEqual(['https://b.example/two', 'https://a.example/one']);
  });

  it("reads a name's own page first among its hits, whatever the title adds in parentheses", () => {
    const names = new Map([['ilse marten', { name: 'Ilse Marten', weight: 1 }]]);
    const hits = [
      hit('Ilse Marten', 1, 'https://a.example/marten-list', 'Architects of the coast', 'Ilse Marten and others.'),
      hit('Ilse Marten', 2, 'https://b.example/marten', 'Ilse Marten (architect)', 'A German architect.'),
    ];
    expect(order(hits, names)).toEqual(['https://b.example/marten', 'https://a.example/marten-list']);
  });

  it("lets a page that only bears a name searched within a longer title (another thing named so) wait behind the question's", () => {
    const names = new Map([['marten', { name: 'Marten', weight: 1 }]]);
    const hits = [
      hit('Marten', 1, 'https://a.example/ferries', 'Marten Bay Ferries', 'Ferries across the bay.'),
      hit(QUESTION, 1, 'https://b.example/point', 'Cape Point', 'The cape.'),
    ];
    expect(order(hits, names)).toEqual(['https://b.example/point', 'https://a.example/ferries']);
  });

  it("counts a name's hits other than its own page for less: the question's eighth page comes before them", () => {
    const names = new Map([['hollywood', { name: 'Hollywood', weight: 1 }]]);
    const own = Array.from({ length: 7 }, (_, i) =>
      hit(QUESTION, i + 1, `https://q${i}.example/cape`, `Cape lighthouse ${i + 1}`, 'The cape lighthouse was built.'),
    );
    const hits = [
      hit('Hollywood', 1, 'https://a.example/hollywood', 'Hollywood', 'A district of Los Angeles.'),
      hit('Hollywood', 2, 'https://b.example/trabbi', 'Trabbi Goes to Hollywood', 'A 1991 comedy film.'),
      ...own,
      hit(QUESTION, 8, 'https://c.example/keepers', 'Lighthouse keepers', 'Keepers of the light.'),
    ];
    const ranked = order(hits, names);
    // The name's own page still comes first: it is what the name was searched for.
    expect(ranked[0]).toBe('https://a.example/hollywood');
    expect(ranked.indexOf('https://c.example/keepers')).toBeLessThan(ranked.indexOf('https://b.example/trabbi'));
  });

  it("weighs the question's own list most: its tenth hit holding the question outranks a plan query's first", () => {
    const other = 'lighthouses of the world';
    const hits = [
      hit(other, 1, 'https://a.example/world', 'Cape lighthouse', 'The cape lighthouse was built in 1871.'),
      hit(QUESTION, 10, 'https://b.example/cape', 'Cape lighthouse', 'The cape lighthouse was built in 1871.'),
    ];
    expect(order(hits)[0]).toBe('https://b.example/cape');
  });

  it('leaves out pages read or tried, and keeps a hit holding nothing of the question at its floor, not out', () => {
    const hits = [
      hit(QUESTION, 1, 'https://a.example/read', 'Cape lighthouse', 'The cape lighthouse.'),
      hit(QUESTION, 2, 'https://b.example/pancakes', 'Easy pancakes', 'Flour, eggs and milk.'),
    ];
    const pool = rankPool(QUESTION, hits, queryRoles(run(), [QUESTION], new Map()), {
      pageKey: hitUrlKey,
      exclude: new Set(['https://a.example/read']),
    });
    expect(pool.map((c) => c.hit.url)).toEqual(['https://b.example/pancakes']);
    // Its place in the question's own list, which a hop reads by.
    expect(pool[0]!.questionRank).toBe(2);
    expect(pool[0]!.worth).toBeCloseTo((3 / (10 + 2)) * FIT_FLOOR, 10);
  });

  it("names a query's role: the question, the question's names and a hop's names, the user's and a plan's others", () => {
    const question = 'Who designed the Harbour Library in Kiel?';
    const roles = queryRoles(
      run(question, ['harbour architecture']),
      [question, 'Harbour Library', 'Ilse Marten', 'harbour architecture', 'Kiel libraries'],
      new Map([['ilse marten', { name: 'Ilse Marten', weight: 0.5 }]]),
    );
    expect(roles.get(question)).toMatchObject({ kind: 'question', weight: 3 });
    expect(roles.get('Harbour Library')).toMatchObject({ kind: 'name', weight: 1, name: 'Harbour Library' });
    expect(roles.get('Ilse Marten')).toMatchObject({ kind: 'name', weight: LINK_WEIGHT * 0.5, name: 'Ilse Marten' });
    expect(roles.get('harbour architecture')?.kind).toBe('other');
    expect(roles.get('Kiel libraries')?.kind).toBe('other');
  });

  it('knows the question and its names in the queries sent, which the search step sent with their spaces collapsed', () => {
    // A pasted question: a double space, a line break. Its own list still weighs most (not as a plan's query).
    const question = '  Who designed the  Harbour   Library\nin Kiel?';
    const sent = 'Who designed the Harbour Library in Kiel?';
    const roles = queryRoles(
      run(question, ['harbour  architecture']),
      [sent, 'Harbour Library', 'harbour architecture'],
      new Map(),
    );
    expect(roles.get(sent)).toMatchObject({ kind: 'question', weight: 3 });
    expect(roles.get('Harbour Library')).toMatchObject({ kind: 'name', weight: 1 });
    expect(roles.get('harbour architecture')?.kind).toBe('other');
  });
});
