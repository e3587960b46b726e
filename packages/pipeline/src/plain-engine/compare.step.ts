import type { EvidenceDraft } from '@research/core';
import type { ClaimRow, SourceRow } from '@research/database';
import type { RunSnapshot, StepContext } from '../steps';
import { isNegated, jaccard, round2, stemSet, years } from './text';

/** Two claims of different sources are about the same thing when their stemmed terms overlap this much. */
export const RELATED = 0.25;

const PROXIMITY: Record<string, number> = {
  government: 0.8,
  academic: 0.8,
  organization: 0.6,
  news: 0.4,
  reference: 0.3,
};
const DIRECTNESS: Record<string, number> = {
  fact: 0.8,
  claim: 0.6,
  prediction: 0.4,
  recommendation: 0.4,
  opinion: 0.3,
};

export interface ClaimRelations {
  /** Claims of other sources about the same thing. */
  related: ClaimRow[];
  /** Those of them that say the opposite (one negated, the other not). */
  contradicting: ClaimRow[];
}

/** Relations of every claim of the run (recomputed whole: later rounds add support to earlier claims). */
export function relateClaims(claims: ClaimRow[]): Map<string, ClaimRelations> {
  const terms = new Map(claims.map((c) => [c.id, stemSet(c.claim_text)]));
  const relations = new Map<string, ClaimRelations>(claims.map((c) => [c.id, { related: [], contradicting: [] }]));
  for (let i = 0; i < claims.length; i++) {
    for (let j = i + 1; j < claims.length; j++) {
      const a = claims[i]!;
      const b = claims[j]!;
      if (a.source_id === b.source_id || jaccard(terms.get(a.id)!, terms.get(b.id)!) < RELATED) continue;
      const opposite = isNegated(a.claim_text) !== isNegated(b.claim_text);
      for (const [x, y] of [
        [a, b],
        [b, a],
      ] as const) {
        relations.get(x.id)!.related.push(y);
        if (opposite) relations.get(x.id)!.contradicting.push(y);
      }
    }
  }
  return relations;
}

function dateRelevance(claim: ClaimRow, sensitivity: string, now: Date): number {
  if (sensitivity === 'none') return 0.5;
  const mentioned = years(claim.claim_text);
  if (mentioned.length === 0) return 0.4;
  const age = now.getUTCFullYear() - Math.max(...mentioned);
  return age <= 1 ? 1 : age <= 3 ? 0.8 : age <= 10 ? 0.5 : 0.2;
}

/**
 * One score per claim, each in [0, 1]:
 * - cross_source_support = other sources with a related claim / 3 (capped at 1);
 * - source_independence_score = distinct domains among the claim's and supporting sources / their count
 *   (0.5 without support);
 * - contradiction_level = contradicting related claims / related claims (0 without any);
 * - primary_source_proximity from the source type (government, academic 0.8 … other 0.2);
 *   evidence_type primary_report when that is at least 0.7;
 * - evidence_directness from the claim type (fact 0.8 … opinion 0.3);
 * - date_relevance_score from the newest year the claim names, when the question is time-sensitive.
 */
export function compareStep(ctx: StepContext, snapshot: RunSnapshot, now = new Date()): EvidenceDraft[] {
  const sources = new Map<string, SourceRow>(snapshot.sources.map((s) => [s.id, s]));
  const relations = relateClaims(snapshot.claims);
  const sensitivity = snapshot.plan?.time_sensitivity ?? 'none';
  let newContradictions = 0;
  const drafts = snapshot.claims.map((claim) => {
    const { related, contradicting } = relations.get(claim.id)!;
    const supporters = [...new Set(related.map((r) => r.source_id))];
    const domains = new Set([claim.source_id, ...supporters].map((id) => sources.get(id)?.domain ?? id));
    const proximity = PROXIMITY[sources.get(claim.source_id)?.source_type ?? ''] ?? 0.2;
    // Each contradicting pair is counted once, in the round that brought its later claim.
    newContradictions += contradicting.filter((o) => o.position < claim.position && claim.round === ctx.round).length;
    return {
      claim_id: claim.id,
      evidence_type: proximity >= 0.7 ? ('primary_report' as const) : ('secondary_report' as const),
      source_independence_score: supporters.length === 0 ? 0.5 : round2(domains.size / (supporters.length + 1)),
      primary_source_proximity: proximity,
      cross_source_support: round2(supporters.length / 3),
      contradiction_level: related.length === 0 ? 0 : round2(contradicting.length / related.length),
      evidence_directness: DIRECTNESS[claim.claim_type] ?? 0.5,
      date_relevance_score: dateRelevance(claim, sensitivity, now),
    };
  });
  if (newContradictions > 0) ctx.metrics.contradictionsDetected(newContradictions);
  return drafts;
}
