// Okapi BM25 over an in-memory list of documents: the search engine of `npm run eval` (issue 12 fixes it as
// BM25 with k1 1.2 and b 0.75 over one text per page). Written out rather than taken from a package: MiniSearch
// (already in the tree, for the `local` provider) scores BM25+ and multiplies a document's score by the number
// of query terms it matches, and lunr stems, drops stop words and parses ':', '-', '+', '~' and '^' in a
// question as query syntax; either would make the baseline something other than the protocol's.

export interface Bm25Options {
  /** Term-frequency saturation. */
  k1?: number;
  /** Length normalisation. */
  b?: number;
}

export interface Bm25Hit<T> {
  doc: T;
  score: number;
}

export interface Bm25Index<T> {
  /** The best `limit` documents for `query` (those sharing no term with it are left out), best first. */
  search(query: string, limit: number): Array<Bm25Hit<T>>;
}

/** Lower-cased runs of letters and digits: the terms of a text. */
export function bm25Terms(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * An index of `docs` over `textOf(doc)`. Score of a document d for a query q (each distinct term t of q once):
 * sum of idf(t) · tf·(k1 + 1) / (tf + k1·(1 − b + b·|d| / avgdl)), with idf(t) = ln(1 + (N − n_t + 0.5) /
 * (n_t + 0.5)) (never negative). Ties keep the documents' order.
 */
export function createBm25Index<T>(docs: readonly T[], textOf: (doc: T) => string, options: Bm25Options = {}) {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const postings = new Map<string, Array<{ doc: number; tf: number }>>();
  const lengths = docs.map((doc, i) => {
    const terms = bm25Terms(textOf(doc));
    const counts = new Map<string, number>();
    for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
    for (const [term, tf] of counts) {
      const list = postings.get(term) ?? [];
      list.push({ doc: i, tf });
      postings.set(term, list);
    }
    return terms.length;
  });
  const avgdl = lengths.reduce((n, l) => n + l, 0) / Math.max(1, docs.length);

  const index: Bm25Index<T> = {
    search(query, limit) {
      const scores = new Map<number, number>();
      for (const term of new Set(bm25Terms(query))) {
        const list = postings.get(term) ?? [];
        const idf = Math.log(1 + (docs.length - list.length + 0.5) / (list.length + 0.5));
        for (const { doc, tf } of list) {
          const norm = tf + k1 * (1 - b + (b * lengths[doc]!) / avgdl);
          scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (k1 + 1)) / norm);
        }
      }
      return [...scores]
        .sort((x, y) => y[1] - x[1] || x[0] - y[0])
        .slice(0, limit)
        .map(([doc, score]) => ({ doc: docs[doc]!, score }));
    },
  };
  return index;
}
