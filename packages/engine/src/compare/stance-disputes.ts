import { CLAIM_STANCES, type ClaimStance, type SlicedWork } from '@research/core';
import type { Contradiction } from './contradiction';
import { judgeStance, propositionOf, type Proposition, type StanceJudgement } from './stance';

/** The parts of a claim and its cluster the stance step reads. */
interface StanceClaim {
  id: string;
  source_id: string;
  claim_text: string;
  /** The stance the model that extracted the claim gave it, if one did. */
  stance?: string | null;
}

/** The question's proposition and the claims that take a stance on it. */
export interface PropositionStances {
  /** The statement the question asks about (the question itself, or a yes/no question as a statement). */
  proposition: string;
  /** Every claim that supports or refutes the proposition, by id (neutral claims are left out). */
  judgements: Map<string, StanceJudgement>;
}

/** The stance a model gave a claim, or null when none did (or gave something else). */
function modelStance(claim: StanceClaim): ClaimStance | null {
  return (CLAIM_STANCES as readonly unknown[]).includes(claim.stance) ? (claim.stance as ClaimStance) : null;
}

/**
 * A claim's stance: the model's when it gave one, else the lexical judge's (judgeStance). A model's
 * refutation keeps the cue and detail the words show when the judge finds one too, and is of kind `stance`
 * otherwise; relevance (which supporting claim a refutation is set against first) is always read from the
 * words.
 */
function stanceOf(claim: StanceClaim, proposition: Proposition | null): StanceJudgement {
  const lexical = proposition ? judgeStance(proposition, claim.claim_text) : null;
  const model = modelStance(claim);
  if (model === null) return lexical ?? { stance: 'neutral', relevance: 0 };
  const relevance = lexical?.relevance ?? 0;
  if (model !== 'refutes') return { stance: model, relevance };
  if (lexical?.stance === 'refutes') return lexical;
  return { stance: 'refutes', relevance, cue: 'stance', detail: '' };
}

/**
 * The stance of every claim toward the proposition of the run's question, in slices: the stance the model
 * that extracted a claim gave it, else the lexical judge's (see judgeStance). Null when no claim has a
 * model's stance and the question proposes nothing the judge can read (a question asking for something,
 * or too short a statement); the model, asked with the question itself, decides that for its own claims.
 */
export function* claimStances(
  claims: readonly StanceClaim[],
  question: string | null | undefined,
): SlicedWork<PropositionStances | null> {
  const statement = question?.trim();
  if (!statement) return null;
  const proposition = propositionOf(statement);
  if (!proposition && !claims.some((c) => modelStance(c) !== null)) return null;
  const judgements = new Map<string, StanceJudgement>();
  for (const [i, claim] of claims.entries()) {
    if (i % 32 === 31) yield;
    const judgement = stanceOf(claim, proposition);
    if (judgement.stance !== 'neutral') judgements.set(claim.id, judgement);
  }
  return { proposition: proposition?.text ?? statement, judgements };
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
