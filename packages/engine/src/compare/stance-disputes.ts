import type { SlicedWork } from '@research/core';
import type { Contradiction } from './contradiction';
import { judgeStance, propositionOf, type StanceJudgement } from './stance';

/** The parts of a claim and its cluster the stance step reads. */
interface StanceClaim {
  id: string;
  source_id: string;
  claim_text: string;
}

/** The question's proposition and the claims that take a stance on it. */
export interface PropositionStances {
  /** The statement the question asks about (the question itself, or a yes/no question as a statement). */
  proposition: string;
  /** Every claim that supports or refutes the proposition, by id (neutral claims are left out). */
  judgements: Map<string, StanceJudgement>;
}

/**
 * The stance of every claim toward the proposition of the run's question (see judgeStance), in slices;
 * null when the question proposes nothing (a question asking for something, or too short a statement).
 */
export function* claimStances(
  claims: readonly StanceClaim[],
  question: string | null | undefined,
): SlicedWork<PropositionStances | null> {
  const proposition = question ? propositionOf(question) : null;
  if (!proposition) return null;
  const judgements = new Map<string, StanceJudgement>();
  for (const [i, claim] of claims.entries()) {
    if (i % 32 === 31) yield;
    const judgement = judgeStance(proposition, claim.claim_text);
    if (judgement.stance !== 'neutral') judgements.set(claim.id, judgement);
  }
  return { proposition: proposition.text, judgements };
}

/** A dispute over the question's proposition: a refuting claim set against a supporting one. */
export interface StanceDispute {
  supporting: string;
  refuting: string;
  contradiction: Contradiction;
}

/**
 * Sets each refuting claim against the supporting claim most relevant to the proposition from another
 * independence group and another cluster (so a source, its copies and its own domain never dispute
 * themselves, nor do near-identical claims). One dispute per refuting claim, refuting claims in claim order.
 */
export function stanceDisputes(
  claims: readonly StanceClaim[],
  stances: PropositionStances,
  independence: { groupOf: ReadonlyMap<string, number>; clusterOf: ReadonlyMap<string, { index: number }> },
): StanceDispute[] {
  const { judgements } = stances;
  const supporting = claims
    .filter((c) => judgements.get(c.id)?.stance === 'supports')
    .sort((a, b) => judgements.get(b.id)!.relevance - judgements.get(a.id)!.relevance);
  const disputes: StanceDispute[] = [];
  for (const claim of claims) {
    const judgement = judgements.get(claim.id);
    if (judgement?.stance !== 'refutes') continue;
    const group = independence.groupOf.get(claim.source_id);
    const cluster = independence.clusterOf.get(claim.id)?.index;
    const partner = supporting.find(
      (s) => independence.groupOf.get(s.source_id) !== group && independence.clusterOf.get(s.id)?.index !== cluster,
    );
    if (!partner) continue;
    disputes.push({
      supporting: partner.id,
      refuting: claim.id,
      contradiction: {
        kind: judgement.cue ?? 'negation',
        detail: judgement.detail ?? '',
        proposition: stances.proposition,
      },
    });
  }
  return disputes;
}
