import { registrableDomain } from '@research/core';
import type { SearchResultRow, SourceRow } from '@research/database';
import {
  containment,
  hitRelevance,
  jaccard,
  nameKeys,
  namedPageWeight,
  OFF_TOPIC,
  questionNames,
  termSet,
  userQueries,
} from '@research/engine';
import { FUSION_K } from '@research/search';
import type { RunSnapshot, StepContext } from '../steps';

/**
 * What a round reads: its hits not fetched yet, best first (the search step's fused order, a hit whose
 * title and snippet do not speak of the question set back), and the sources the run may hold after it.
 */
export interface Selection {
  hits: SearchResultRow[];
  /** max_sources for this round: the sources already kept plus the round's share of the room left. */
  maxSources: number;
  /**
   * The URLs of `hits` that do not speak of the question: their title and snippet share no word with it
   * (hitRelevance OFF_TOPIC), or a planner's query that shares none found them (see offQuestion).
   */
  offTopic: ReadonlySet<string>;
  /** The URLs of `hits` whose title is like that of a page their site holds or gave before them (see orderByWorth). */
  repeats: ReadonlySet<string>;
}

/**
 * Whether a query of round 1 is a planner's that shares no word with the question (a model that plans
 * badly: "easy pancake recipe"). Its hits share a word or two with a long question by chance, so they
 * weigh as little as a hit that shares none and wait for the second hop. The user's own extra queries are
 * never off the question, and later rounds search names the run read, which the question need not hold.
 */
function offQuestion(query: string, question: ReadonlySet<string>, trusted: ReadonlySet<string>): boolean {
  if (question.size === 0 || trusted.has(query.trim())) return false;
  const terms = [...termSet(query)];
  return terms.length > 0 && !terms.some((t) => question.has(t));
}

/**
 * A page's site counts against it once the site already gave pages: each page a site holds (kept before, or
 * chosen earlier in this order) halves the worth of its next one. Diversity as a penalty, not a wall: a site's
 * third page still comes before a weak page elsewhere when it ranked well enough (max_pages_per_domain, the
 * run's budget, is the crawler's to enforce).
 */
const SITE_PENALTY = 0.5;

/** The worth of the hit at `index` of the search step's (fused) order, before any site penalty. */
export function worthAt(index: number): number {
  return 1 / (FUSION_K + index + 1);
}

/** A hit with what it is worth reading. */
export interface Weighed<T> {
  item: T;
  worth: number;
}

/**
 * The title likeness (see titleLikeness) from which a page repeats a subject its site gave: most of its
 * title's words are the other's ("Big Stone Gap (soundtrack)" after "Big Stone Gap (film)"), not one word of
 * two ("Artificial photosynthesis" after "Photosynthesis", a subject of its own).
 */
export const REPEAT_LIKENESS = 0.6;

/**
 * How alike two titles are: their term Jaccard, and at least REPEAT_LIKENESS when one holds the whole of the
 * other, a title of two words or more ("Sir Matt Busby Sports Complex" holds "Matt Busby": named after him, it
 * is his subject again). A one-word title held in another is not enough ("Artificial photosynthesis").
 */
function titleLikeness(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const j = jaccard(a, b);
  return Math.min(a.size, b.size) >= 2 && containment(a, b) === 1 ? Math.max(j, REPEAT_LIKENESS) : j;
}

/** Hits in the order to fetch them, and which of them repeat a subject their site gave before (see orderByWorth). */
export interface Ordered<T> {
  items: T[];
  repeats: Set<string>;
}

/**
 * Hits in the order to fetch them: by worth, with the site penalty applied; a repeat of a subject its site
 * holds or gave before it (REPEAT_LIKENESS) is weighed down further, worth × (1 − its likeness). A site gives
 * few pages (max_pages_per_domain), and a second one on the subject of its first (next season's team page
 * after this season's) says less that is new than a page on another. Which hits were repeats when chosen
 * comes with the order.
 */
export function orderByWorth<T extends { url: string; title?: string | null }>(
  hits: ReadonlyArray<Weighed<T>>,
  kept: ReadonlyArray<Pick<SourceRow, 'domain'> & { title?: string | null }>,
): Ordered<T> {
  const pending = hits.map(({ item, worth }) => ({
    hit: item,
    worth,
    site: registrableDomain(item.url),
    terms: termSet(item.title ?? ''),
    /** The highest likeness of its title to a page its site gave so far. */
    likeness: 0,
  }));
  const given = new Map<string, number>();
  // A title a site gives twice says nothing of the subject (a site's name on every page, "Home"), and copies
  // of one page are the crawler's to find: only a like title counts, not the same one. Each page a site gives
  // updates only the likeness of that site's hits, so ordering stays linear in the hits per choice.
  const give = (site: string, terms: ReadonlySet<string>) => {
    given.set(site, (given.get(site) ?? 0) + 1);
    for (const p of pending) {
      if (p.site !== site) continue;
      const j = titleLikeness(p.terms, terms);
      if (j < 1 && j > p.likeness) p.likeness = j;
    }
  };
  for (const source of kept) give(source.domain, termSet(source.title ?? ''));
  const worthOf = (p: (typeof pending)[number]) =>
    p.worth * SITE_PENALTY ** (given.get(p.site) ?? 0) * (p.likeness >= REPEAT_LIKENESS ? 1 - p.likeness : 1);
  const ordered: Ordered<T> = { items: [], repeats: new Set() };
  while (pending.length > 0) {
    let best = 0;
    let bestWorth = -1;
    pending.forEach((p, i) => {
      const worth = worthOf(p);
      if (worth > bestWorth) [best, bestWorth] = [i, worth];
    });
    const [chosen] = pending.splice(best, 1);
    if (chosen.likeness >= REPEAT_LIKENESS) ordered.repeats.add(chosen.hit.url);
    give(chosen.site, chosen.terms);
    ordered.items.push(chosen.hit);
  }
  return ordered;
}

/**
 * Chooses the hits the fetch step reads this round and how many sources it may keep: the part of fetching
 * that decides, apart from the part that downloads. Empty when the round has no share of max_sources left.
 */
export function selectHits(
  snapshot: RunSnapshot,
  ctx: Pick<StepContext, 'budget' | 'round' | 'rounds'> & {
    run: Pick<StepContext['run'], 'query'> & Partial<Pick<StepContext['run'], 'extra_queries' | 'language'>>;
  },
): Selection {
  const known = snapshot.sources;
  const knownUrls = new Set(known.map((s) => s.url));
  const allowance = ctx.budget.sourceAllowance(known.length, ctx.round, ctx.rounds);
  const maxSources = Math.min(ctx.budget.max_sources, known.length + Math.max(0, allowance));
  if (allowance <= 0) return { hits: [], maxSources, offTopic: new Set(), repeats: new Set() };
  const round = snapshot.searchResults.filter((r) => r.round === ctx.round && !knownUrls.has(r.url));
  const question = termSet(ctx.run.query);
  const trusted = new Set(userQueries(ctx.run.extra_queries).map((q) => q.trim()));
  // Judged once per query (a query brings ten hits); only round 1's queries are a planner's.
  const queryWeight = new Map<string, number>();
  const weightOf = (query: string) => {
    if (ctx.round !== 1) return 1;
    if (!queryWeight.has(query)) queryWeight.set(query, offQuestion(query, question, trusted) ? OFF_TOPIC : 1);
    return queryWeight.get(query)!;
  };
  // The question's names and every query of the round: a hit titled as one is that name's page.
  const names = nameKeys([...questionNames(ctx.run.query, ctx.run.language ?? 'en'), ...round.map((r) => r.query)]);
  const offTopic = new Set<string>();
  const weighed = round
    .sort((a, b) => a.position - b.position)
    .map((item, index) => {
      const relevance = hitRelevance(question, item) * weightOf(item.query);
      if (relevance <= OFF_TOPIC) offTopic.add(item.url);
      return { item, worth: worthAt(index) * relevance * namedPageWeight(item.title, names) };
    });
  const { items, repeats } = orderByWorth(weighed, known);
  return { hits: items, maxSources, offTopic, repeats };
}
