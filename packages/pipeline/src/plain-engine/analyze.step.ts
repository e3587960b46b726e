import crypto from 'node:crypto';
import type { ClaimDraft } from '@research/core';
import type { RunSnapshot, StepContext } from '../steps';
import { claimType, contentTerms, overlap, round2, sentences, stem } from './text';

const CLAIMS_PER_SOURCE = 8;

/** The terms a sentence must share to be about the question: the query's and the planned queries'. */
export function planTerms(snapshot: RunSnapshot, query: string): Set<string> {
  const texts = [query, ...(snapshot.plan?.search_queries.map((q) => q.query) ?? [])];
  return new Set(texts.flatMap((t) => contentTerms(t)).map(stem));
}

/**
 * Extracts claims from the sources fetched this round: sentences sharing terms with the plan, each
 * quoted verbatim as its own evidence span. Confidence grows with the terms shared.
 */
export function analyzeStep(ctx: StepContext, snapshot: RunSnapshot): ClaimDraft[] {
  const terms = planTerms(snapshot, ctx.run.query);
  const claims: ClaimDraft[] = [];
  for (const source of snapshot.sources.filter((s) => s.round === ctx.round)) {
    const scored = sentences(source.content)
      .map((sentence, order) => ({
        sentence,
        order,
        shared: overlap(new Set(contentTerms(sentence.text).map(stem)), terms),
      }))
      .filter((s) => s.shared > 0);
    const best = scored
      .sort((a, b) => b.shared - a.shared || a.order - b.order)
      .slice(0, CLAIMS_PER_SOURCE)
      .sort((a, b) => a.order - b.order);
    for (const { sentence, shared } of best) {
      const type = claimType(sentence.text);
      const base = 0.4 + 0.1 * Math.min(shared, 5);
      claims.push({
        id: crypto.randomUUID(),
        source_id: source.id,
        claim_text: sentence.text,
        evidence_span: sentence.text,
        claim_type: type,
        confidence: round2(type === 'opinion' || type === 'prediction' ? base * 0.8 : base),
      });
    }
  }
  return claims;
}
