import type { SearchResultRow, SourceRow } from '@research/database';
import { runBudgetOf, selectHits, type RunSnapshot } from '@research/pipeline';

// Which hits a round reads, decided apart from reading them: a pure function of what the run holds.
const hit = (url: string, round: number, rank: number, position: number, query = 'the question') =>
  ({ url, round, rank, position, query }) as SearchResultRow;
const source = (url: string) => ({ url }) as SourceRow;
/** A round-1 hit with a title, ranked as it is placed in the fused order. */
const titled = (url: string, position: number, title: string) => ({ ...hit(url, 1, position + 1, position), title });
const snapshot = (searchResults: SearchResultRow[], sources: SourceRow[] = []): RunSnapshot => ({
  plan: null,
  searchResults,
  sources,
  claims: [],
  evidence: [],
});

describe('selecting the hits a round reads', () => {
  const budget = runBudgetOf({ depth: 'normal', budget: { max_sources: 10 }, usage: {} });
  // No question words: every hit is as much on topic as the next, the order is the search step's.
  const run = { query: '' };

  it('sets back a hit whose title and snippet share no word with the question', () => {
    const hits = [
      { ...hit('https://a.example/pancakes', 1, 1, 0), title: 'Easy pancakes', snippet: 'Flour, eggs and milk.' },
      {
        ...hit('https://b.example/lighthouse', 1, 2, 1),
        title: 'Cape lighthouse',
        snippet: 'Built in 1871 of granite.',
      },
    ];
    const question = { query: 'When was the cape lighthouse built?' };
    const order = selectHits(snapshot(hits), { budget, round: 1, rounds: 1, run: question }).hits.map((h) => h.url);
    expect(order).toEqual(['https://b.example/lighthouse', 'https://a.example/pancakes']);
  });

  it("sets back the hits of a planner's first-round query that shares no word with the question, not the user's", () => {
    const question = { query: 'When was the cape lighthouse built?', extra_queries: ['granite towers'] };
    // Each snippet shares one word with the question, as a page found by chance does with a long question.
    const hits = [
      {
        ...hit('https://a.example/flights', 1, 1, 0, 'cheap flights to the coast'),
        title: 'Flights',
        snippet: 'Built for the summer.',
      },
      { ...hit('https://b.example/towers', 1, 1, 1, 'granite towers'), title: 'Towers', snippet: 'Built of granite.' },
      { ...hit('https://c.example/cape', 1, 1, 2, 'cape lighthouse'), title: 'Cape light', snippet: 'A lighthouse.' },
    ];
    const first = selectHits(snapshot(hits), { budget, round: 1, rounds: 2, run: question });
    expect([...first.offTopic]).toEqual(['https://a.example/flights']);
    expect(first.hits.map((h) => h.url).at(-1)).toBe('https://a.example/flights');
    // A later round searches names the run read, which the question need not hold.
    const later = hits.map((h) => ({ ...h, round: 2 }));
    expect(selectHits(snapshot(later), { budget, round: 2, rounds: 2, run: question }).offTopic.size).toBe(0);
  });

  it("reads in the search step's fused order, a site's further pages pushed back, and only the round's new hits", () => {
    const hits = [
      hit('https://a.example/1', 1, 1, 0),
      hit('https://a.example/2', 1, 2, 1),
      hit('https://a.example/3', 1, 3, 2),
      hit('https://b.example/1', 1, 4, 3),
      hit('https://c.example/old', 1, 1, 4),
      hit('https://c.example/new', 1, 2, 5),
      hit('https://d.example/next-round', 2, 1, 6),
    ];
    const kept = [{ url: 'https://c.example/old', domain: 'c.example' } as SourceRow];
    const selection = selectHits(snapshot(hits, kept), { budget, round: 1, rounds: 2, run });
    expect(selection.hits.map((h) => h.url)).toEqual([
      'https://a.example/1',
      'https://b.example/1',
      'https://a.example/2',
      'https://c.example/new',
      'https://a.example/3',
    ]);
  });

  it("keeps a site's well-ranked page ahead of a weak page elsewhere: diversity is a penalty, not a wall", () => {
    const weak = Array.from({ length: 60 }, (_, i) => hit(`https://w${i}.example/`, 1, 1, 2 + i));
    const hits = [hit('https://a.example/1', 1, 1, 0), hit('https://a.example/2', 1, 2, 1), ...weak];
    const order = selectHits(snapshot(hits), { budget, round: 1, rounds: 1, run }).hits.map((h) => h.url);
    expect(order.indexOf('https://a.example/2')).toBeGreaterThan(1);
    expect(order.indexOf('https://a.example/2')).toBeLessThan(order.indexOf('https://w59.example/'));
  });

  it("gives a site's next page to another subject: a page like one its site gave waits, as a repeat", () => {
    const hits = [
      titled('https://a.example/sports-complex', 0, 'Ilse Marten Hall'),
      titled('https://a.example/ilse-marten', 1, 'Ilse Marten'),
      titled('https://a.example/harbour-library', 2, 'Harbour Library'),
      titled('https://b.example/annex', 3, 'Harbour Library Annex'),
    ];
    const selection = selectHits(snapshot(hits), { budget, round: 1, rounds: 1, run });
    expect(selection.hits.map((h) => h.url)).toEqual([
      'https://a.example/sports-complex',
      'https://b.example/annex',
      'https://a.example/harbour-library',
      'https://a.example/ilse-marten',
    ]);
    // The annex is like the library, but on another site: only a site's own pages repeat each other.
    expect([...selection.repeats]).toEqual(['https://a.example/ilse-marten']);
  });

  it("counts a title holding the whole of a site's title of two words or more as a repeat, however long", () => {
    const hits = [
      titled('https://a.example/ilse-marten', 0, 'Ilse Marten'),
      titled('https://a.example/memorial', 1, 'Sir Ilse Marten Memorial Sports Hall'),
      titled('https://a.example/harbour-library', 2, 'Harbour Library'),
      titled('https://b.example/photosynthesis', 3, 'Photosynthesis'),
      titled('https://b.example/artificial', 4, 'Artificial photosynthesis'),
    ];
    const selection = selectHits(snapshot(hits), { budget, round: 1, rounds: 1, run });
    // Named after her, the hall is her subject again; artificial photosynthesis is a subject of its own.
    expect([...selection.repeats]).toEqual(['https://a.example/memorial']);
    const order = selection.hits.map((h) => h.url);
    expect(order.indexOf('https://a.example/harbour-library')).toBeLessThan(
      order.indexOf('https://a.example/memorial'),
    );
  });

  it('counts no repeat between pages a site titles the same: the title says nothing of their subjects', () => {
    const hits = [
      titled('https://a.example/2019/ferry', 0, 'Harbour News'),
      titled('https://a.example/2020/library', 1, 'Harbour News'),
      titled('https://a.example/2021/annex', 2, 'Harbour News Archive'),
    ];
    const selection = selectHits(snapshot(hits), { budget, round: 1, rounds: 1, run });
    expect([...selection.repeats]).toEqual(['https://a.example/2021/annex']);
    expect(selection.hits.map((h) => h.url)).toEqual([
      'https://a.example/2019/ferry',
      'https://a.example/2020/library',
      'https://a.example/2021/annex',
    ]);
  });

  it('reads the page titled as a name the question holds before better-ranked pages that only mention it', () => {
    const question = { query: 'Were Cape Verran and Orla Point both lighthouses?' };
    const hits = [
      titled('https://a.example/keepers', 0, 'Cape Verran lighthouse keepers'),
      titled('https://b.example/wrecks', 1, 'Cape Verran shipwrecks'),
      titled('https://c.example/orla-point', 2, 'Orla Point'),
      titled('https://d.example/cape-verran', 3, 'Cape Verran'),
    ];
    const order = selectHits(snapshot(hits), { budget, round: 1, rounds: 1, run: question }).hits.map((h) => h.url);
    expect(order.slice(0, 2)).toEqual(['https://c.example/orla-point', 'https://d.example/cape-verran']);
  });

  it('keeps room for later rounds: round 1 of 2 may fill half of max_sources, the last round the rest', () => {
    const hits = [hit('https://a.example/1', 1, 1, 0)];
    expect(selectHits(snapshot(hits), { budget, round: 1, rounds: 2, run }).maxSources).toBe(5);
    const kept = Array.from({ length: 5 }, (_, i) => source(`https://k.example/${i}`));
    const last = selectHits(snapshot([hit('https://a.example/1', 2, 1, 0)], kept), {
      budget,
      round: 2,
      rounds: 2,
      run,
    });
    expect(last.maxSources).toBe(10);
    expect(last.hits).toHaveLength(1);
  });

  it('reads nothing once the run holds max_sources', () => {
    const kept = Array.from({ length: 10 }, (_, i) => source(`https://k.example/${i}`));
    const selection = selectHits(snapshot([hit('https://a.example/1', 2, 1, 0)], kept), {
      budget,
      round: 2,
      rounds: 2,
      run,
    });
    expect(selection).toEqual({ hits: [], maxSources: 10, offTopic: new Set(), repeats: new Set() });
  });
});
