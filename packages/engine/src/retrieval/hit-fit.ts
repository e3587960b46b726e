import { nameKey, subjectKey } from '../text/names';
import { termWeights, weightOf } from '../text/term-weights';
import { jaccard, termSet } from '../text/tokens';

/** A search hit as its result list shows it, before its page is read. */
export interface ShownHit {
  title: string | null;
  snippet: string | null;
}

/** How well hits fit a question, weighed over the hits a run holds (see hitFit). */
export interface HitJudge {
  /** From 0 to 1: how much of the question (or of the name searched for it) the hit's title and snippet hold. */
  fit(hit: ShownHit, name?: string | null): number;
}

/**
 * A judge of the hits `pool` for `question`: a hit holds the question's terms its title and snippet hold, each
 * weighed by how few hits of the pool hold it (termWeights: a word every hit shares says nothing of which
 * page answers). A hit a name's search found fits that name fully when it is the name's page (its title's
 * subject is the name: "Kiss and Tell", "Kiss and Tell (1945 film)", "The Kiss and Tell"), and by the words the
 * name and its title share otherwise (nameFit); it fits by the larger of the two.
 */
export function hitJudge(question: string, pool: readonly ShownHit[]): HitJudge {
  const asked = termSet(question);
  const shown = pool.map((hit) => termSet(`${hit.title ?? ''} ${hit.snippet ?? ''}`));
  const weights = termWeights(asked, shown);
  const total = weightOf(asked, weights);
  return {
    fit(hit, name) {
      const terms = termSet(`${hit.title ?? ''} ${hit.snippet ?? ''}`);
      const held =
        total > 0
          ? weightOf(
              [...asked].filter((t) => terms.has(t)),
              weights,
            ) / total
          : 0;
      return name ? Math.max(held, nameFit(hit.title ?? '', name)) : held;
    },
  };
}

/**
 * 1 when `title` is the page of `name`, else the share of the words of both that both hold (Jaccard), halved: a
 * title that holds the name and more names something else ("American Bulldog" for "American", "John F.
 * Fitzgerald" for "John"), and fits the name's search the less the more it adds.
 */
// Swept on the tune sets (first 300 of each; every gold page read, HotpotQA / 2Wiki / MuSiQue): the share of the
// name's words alone 83.0 / 72.0 / 50.8 %, Jaccard 84.3 / 73.0 / 50.8 %, Dice 85.0 / 73.3 / 47.5 %, Dice halved
// again 85.0 / 72.7 / 49.2 %, nothing but the name's own page 84.0 / 71.0 / 52.5 %.
export function nameFit(title: string, name: string): number {
  const subject = subjectKey(title);
  if (subject && (subject === subjectKey(name) || subject === nameKey(name))) return 1;
  const wanted = termSet(name);
  if (wanted.size === 0) return 0;
  return jaccard(wanted, termSet(title)) / 2;
}
