/**
 * What each of `terms` tells among `texts` (each a set of terms): ln(1 + N / df), N the texts and df those
 * holding the term (at least 1). A word every text repeats tells little; a word only one text shares with the
 * question tells most.
 */
export function termWeights(
  terms: ReadonlySet<string>,
  texts: ReadonlyArray<ReadonlySet<string>>,
): Map<string, number> {
  const df = new Map([...terms].map((t) => [t, 0]));
  for (const text of texts) for (const t of text) if (df.has(t)) df.set(t, df.get(t)! + 1);
  return new Map([...df].map(([t, n]) => [t, Math.log(1 + texts.length / Math.max(1, n))]));
}

/** The summed weight of `terms` (terms without a weight count nothing). */
export function weightOf(terms: Iterable<string>, weights: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const t of terms) sum += weights.get(t) ?? 0;
  return sum;
}
