import { nameKey } from '../text/names';
import { termSet } from '../text/tokens';

/** What hitRelevance gives a hit whose title and snippet share no word with the question. */
export const OFF_TOPIC = 0.5;

/** Question words a hit's title and snippet must hold to count as fully on topic. */
const ON_TOPIC_TERMS = 4;

/**
 * How much a search hit's own words say it is on the question's topic, from 0.5 (its title and snippet
 * share no word with the question) to 1 (they share ON_TOPIC_TERMS of them, or all the question has).
 * Read before fetching: a query that wanders off (a planner's poor rewording) brings hits whose snippets
 * say so, and they wait behind the hits that speak of the question.
 */
export function hitRelevance(
  question: string | ReadonlySet<string>,
  hit: { title: string | null; snippet: string | null },
): number {
  const own = typeof question === 'string' ? termSet(question) : question;
  if (own.size === 0) return 1;
  const words = termSet(`${hit.title ?? ''} ${hit.snippet ?? ''}`);
  let shared = 0;
  for (const t of own) if (words.has(t)) shared++;
  return OFF_TOPIC + (1 - OFF_TOPIC) * Math.min(1, shared / Math.min(ON_TOPIC_TERMS, own.size));
}

/** How much more a page titled exactly as a name the run searched is worth than another hit of its rank. */
export const NAMED_PAGE = 2;


/**
 * NAMED_PAGE for a hit titled exactly as one of `names` (the names the question holds, the names a second
 * hop searched), 1 otherwise. The page of a name is what searching it is for, and a search engine ranks a
 * short page about "Silene" below long pages about Silene species that repeat the word; a qualified title
 * ("Ed Wood (film)") is another subject than the name alone.
 */
export function namedPageWeight(title: string | null, names: ReadonlySet<string>): number {
  return title && names.has(nameKey(title)) ? NAMED_PAGE : 1;
}

/** The names of `texts` as namedPageWeight looks them up. */
export function nameKeys(texts: Iterable<string>): Set<string> {
  return new Set([...texts].map(nameKey).filter(Boolean));
}
