import { nextCandidates, queryRoles, rankPool } from '@research/pipeline';
import { poolHit } from '../support/pool-hit';

// The fetch step's pool: the engine ranks it (test/engine/hit-ranking.test.ts); the step gives it its run and the search
// package's rules (which URLs are one page, the local corpus is no site), and takes each hop's candidates from it.
const QUESTION = 'When was the cape lighthouse built?';
const ctx = { run: { query: QUESTION, language: 'en', extra_queries: null } } as unknown as Parameters<
  typeof queryRoles
>[0];
const hit = poolHit;

describe("the step's pool", () => {
  it('takes the URLs of one page (a trailing slash, a tracking parameter) as one candidate', () => {
    const hits = [
      hit(QUESTION, 1, 'https://a.example/cape/', 'Cape lighthouse', 'The cape lighthouse was built in 1871.'),
      hit('cape lighthouse history', 1, 'https://a.example/cape?utm_source=x', 'Cape lighthouse', 'Built in 1871.'),
    ];
    const pool = rankPool(ctx, hits, queryRoles(ctx, new Set(hits.map((h) => h.query)), new Map()), new Set());
    expect(pool.map((c) => c.key)).toEqual(['https://a.example/cape']);
    expect(pool[0]!.questionRank).toBe(1);
  });

  it('leaves out the pages read or tried, by that same key', () => {
    const hits = [hit(QUESTION, 1, 'https://a.example/cape/', 'Cape lighthouse')];
    const roles = queryRoles(ctx, [QUESTION], new Map());
    expect(rankPool(ctx, hits, roles, new Set(['https://a.example/cape']))).toEqual([]);
  });
});

describe('the next candidates of a hop', () => {
  const candidate = (url: string, worth: number, questionRank: number | null = null) => ({
    hit: hit(QUESTION, 1, url, ''),
    key: url,
    worth,
    questionRank,
  });

  it("skips a site that holds max_pages_per_domain pages, counting the run's sources and the hop's own picks", () => {
    const pool = [
      candidate('https://a.example/1', 5),
      candidate('https://a.example/2', 4),
      candidate('https://a.example/3', 3),
      candidate('https://b.example/1', 2),
    ];
    const picked = nextCandidates(pool, 3, new Map([['a.example', 1]]), () => 2).map((c) => c.hit.url);
    expect(picked).toEqual(['https://a.example/1', 'https://b.example/1']);
  });

  it('gives each candidate the pages of a site its own allowance says', () => {
    // The question's first hit may take a site's second page where the others may take one.
    const pool = [candidate('https://a.example/1', 5, 2), candidate('https://a.example/2', 4, 1)];
    const allowance = (c: { questionRank: number | null }) => (c.questionRank === 1 ? 2 : 1);
    expect(nextCandidates(pool, 3, new Map(), allowance).map((c) => c.hit.url)).toEqual([
      'https://a.example/1',
      'https://a.example/2',
    ]);
    expect(nextCandidates(pool, 3, new Map(), () => 1)).toHaveLength(1);
  });

  it('takes the local corpus as no site', () => {
    const pool = [candidate('local:a.txt', 3), candidate('local:b.txt', 2), candidate('local:c.txt', 1)];
    expect(nextCandidates(pool, 3, new Map(), () => 1)).toHaveLength(3);
  });
});
