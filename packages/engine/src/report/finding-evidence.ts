import { SAME_PROPOSITION } from '../compare/pair-relations';
import { jaccard, termSet } from '../text/tokens';

/** A claim as findingEvidence reads it. */
export interface EvidenceClaim {
  source_id: string;
  claim_text: string;
}

/**
 * The term overlap (Jaccard) between a finding and a claim of one of its sources that the claim must pass
 * to be the finding's evidence from that source: half of what makes two claims one proposition, because a
 * cluster joins claims transitively (a member may share fewer terms with the finding's text than with its
 * neighbour) and a language model's restatement of a finding keeps only half of its terms. A claim that
 * shares no more than the topic's words ("remote", "software", "team", "productivity") stays below it.
 */
export const FINDING_EVIDENCE_LIKENESS = SAME_PROPOSITION / 2;

/** One source's evidence for a finding: the claim of that source the finding states. */
export interface FindingEvidence<C extends EvidenceClaim> {
  sourceId: string;
  claim: C;
}

/**
 * Reads a run's claims once and answers, for each finding, the claim of each of its sources that the
 * finding states. A report stores a finding as its text and its cluster's sources, not its claims: the
 * finding's text is the strongest claim of its cluster (or a restatement of it), so that claim is the one
 * of its source whose text is the finding's, and each other source's is its claim closest to the
 * finding's text (Jaccard of their terms, above FINDING_EVIDENCE_LIKENESS; the earlier claim on a
 * tie). A source without such a claim gives no evidence. Each claim's terms are read at most once.
 */
export function findingEvidenceOf<C extends EvidenceClaim>(
  claims: readonly C[],
): (finding: { text: string; source_ids: readonly string[] }) => Array<FindingEvidence<C>> {
  const bySource = new Map<string, C[]>();
  for (const claim of claims) {
    const list = bySource.get(claim.source_id);
    if (list) list.push(claim);
    else bySource.set(claim.source_id, [claim]);
  }
  const terms = new Map<C, Set<string>>();
  const termsOf = (claim: C) => {
    let set = terms.get(claim);
    if (!set) terms.set(claim, (set = termSet(claim.claim_text)));
    return set;
  };
  return (finding) => {
    const text = finding.text.trim();
    const findingTerms = termSet(text);
    const out: Array<FindingEvidence<C>> = [];
    for (const sourceId of new Set(finding.source_ids)) {
      const own = bySource.get(sourceId) ?? [];
      let best = own.find((c) => c.claim_text.trim() === text);
      if (!best) {
        let bestLikeness = FINDING_EVIDENCE_LIKENESS;
        for (const claim of own) {
          const likeness = jaccard(findingTerms, termsOf(claim));
          if (likeness > bestLikeness) {
            best = claim;
            bestLikeness = likeness;
          }
        }
      }
      if (best) out.push({ sourceId, claim: best });
    }
    return out;
  };
}
