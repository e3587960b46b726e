import { finishNow, type EvidenceDraft, type Plan, type SlicedWork } from '@research/core';
import { languageProfile } from '../text/language';
import { overlapCount, round2, termSet, years } from '../text/tokens';
import { buildEvidenceGraph, type EvidenceGraph } from './evidence-graph';
import type { ClaimInput, SourceInput } from './graph-inputs';

/** Closeness to the primary source by source type (see docs/evidence-scoring.md). */
export const TYPE_PROXIMITY: Readonly<Record<string, number>> = {
  government: 0.9,
  academic: 0.9,
  organization: 0.7,
  news: 0.5,
  reference: 0.4,
  blog: 0.3,
  forum: 0.2,
  other: 0.3,
};

/** How directly a claim type can be checked against its span. */
export const TYPE_DIRECTNESS: Readonly<Record<string, number>> = {
  fact: 1,
  claim: 0.85,
  prediction: 0.6,
  recommendation: 0.6,
  opinion: 0.5,
};

/** Years after which a dated statement has lost half its relevance, per time sensitivity. */
export const HALF_LIFE_YEARS: Readonly<Record<Plan['time_sensitivity'], number>> = {
  none: Infinity,
  low: 20,
  medium: 5,
  high: 1,
};

/** A claim is reported first-hand (evidence_type primary_report) from this proximity on. */
export const PRIMARY_THRESHOLD = 0.7;

export interface ScoringInput {
  claims: readonly ClaimInput[];
  sources: readonly SourceInput[];
  timeSensitivity: Plan['time_sensitivity'];
  /** The run's creation time: ages are measured from it, never from "now", so scores do not drift. */
  referenceDate: Date;
}

function anyHedge(text: string): boolean {
  return ['en', 'de', 'fr', 'es', 'it'].some((l) => languageProfile(l).hedges.test(text));
}
function anySecondhand(text: string): boolean {
  return ['en', 'de', 'fr', 'es', 'it'].some((l) => languageProfile(l).secondhand.test(text));
}
function anyFirsthand(text: string): boolean {
  return ['en', 'de', 'fr', 'es', 'it'].some((l) => languageProfile(l).firsthand.test(text));
}

function latestYear(claim: ClaimInput, source: SourceInput): number | null {
  const inSpan = years(claim.evidence_span);
  if (inSpan.length) return Math.max(...inSpan);
  const published = source.published_at ? Date.parse(source.published_at) : NaN;
  return Number.isNaN(published) ? null : new Date(published).getUTCFullYear();
}

/**
 * The one scoring function of the service: evidence in, six scores per claim out. It reads only the
 * claims, their sources, the plan's time sensitivity and the run's creation date; the run's depth and
 * budgets never reach it, so depth cannot change how evidence is judged. With g the independence
 * groups behind the claim's cluster (sources merged when they share a registrable domain or copied
 * text), n the distinct sources of the cluster, and c the independence groups behind clusters that
 * contradict it:
 *
 *   source_independence_score = 1 − 0.5^g
 *   cross_source_support      = s / (s + 1),  s = (g − 1) + 0.5 · (n − g)   (copies count half)
 *   contradiction_level       = c / (c + g)
 *   primary_source_proximity  = TYPE_PROXIMITY[source_type] + 0.1 (first-hand wording) − 0.1 (reported
 *                               speech), clamped; evidence_type = primary_report when ≥ PRIMARY_THRESHOLD
 *   evidence_directness       = share of the claim's terms found in its span · TYPE_DIRECTNESS[type]
 *                               · 0.8 when the span hedges
 *   date_relevance_score      = 1 without time sensitivity; else 0.5^(age / HALF_LIFE_YEARS), age from
 *                               the newest year in the span (else the source's publication date) to the
 *                               run's creation year; 0.5 when the evidence carries no date
 *
 * Every score is rounded to two decimals and lies in [0, 1].
 */
export function scoreEvidence(input: ScoringInput, graph?: EvidenceGraph): EvidenceDraft[] {
  return finishNow(scoreWork(input, graph ?? buildEvidenceGraph(input.claims, input.sources)));
}

/** scoreEvidence as sliced work over a graph already built. */
export function* scoreWork(input: ScoringInput, g: EvidenceGraph): SlicedWork<EvidenceDraft[]> {
  const referenceYear = input.referenceDate.getUTCFullYear();
  const contradictingGroups = contradictingGroupsOf(g);
  const stanceLevel = stanceLevels(g);

  const scores: EvidenceDraft[] = [];
  for (const claim of g.claims) {
    if (scores.length % 64 === 63) yield;
    const source = g.sources.get(claim.source_id)!;
    const cluster = g.clusterOf.get(claim.id)!;
    const groups = Math.max(1, cluster.groups);
    const n = cluster.sourceIds.length;
    const support = groups - 1 + 0.5 * (n - groups);
    const c = contradictingGroups.get(cluster.index)?.size ?? 0;

    let proximity = TYPE_PROXIMITY[source.source_type ?? 'other'] ?? TYPE_PROXIMITY.other!;
    if (anyFirsthand(claim.evidence_span)) proximity += 0.1;
    if (anySecondhand(claim.evidence_span)) proximity -= 0.1;
    proximity = round2(proximity);

    const claimTerms = termSet(claim.claim_text);
    const spanTerms = termSet(claim.evidence_span);
    const coverage = claimTerms.size === 0 ? 0 : overlapCount(claimTerms, spanTerms) / claimTerms.size;
    const directness =
      coverage *
      (TYPE_DIRECTNESS[claim.claim_type] ?? TYPE_DIRECTNESS.claim!) *
      (anyHedge(claim.evidence_span) ? 0.8 : 1);

    let dateRelevance = 1;
    if (input.timeSensitivity !== 'none') {
      const year = latestYear(claim, source);
      dateRelevance =
        year === null ? 0.5 : Math.pow(0.5, Math.max(0, referenceYear - year) / HALF_LIFE_YEARS[input.timeSensitivity]);
    }

    scores.push({
      claim_id: claim.id,
      evidence_type: proximity >= PRIMARY_THRESHOLD ? 'primary_report' : 'secondary_report',
      source_independence_score: round2(1 - Math.pow(0.5, groups)),
      primary_source_proximity: proximity,
      cross_source_support: round2(support / (support + 1)),
      contradiction_level: round2(Math.max(c / (c + groups), stanceLevel.get(claim.id) ?? 0)),
      evidence_directness: round2(directness),
      date_relevance_score: round2(dateRelevance),
    });
  }
  return scores;
}

/** The independence groups behind the clusters that contradict each cluster, by cluster index. */
function contradictingGroupsOf(g: EvidenceGraph): Map<number, Set<number>> {
  const contradictingGroups = new Map<number, Set<number>>();
  for (const { a, b, contradiction } of g.contradictions) {
    // Disputes over the question's proposition are weighed side against side (stanceLevels).
    if (contradiction.proposition !== undefined) continue;
    for (const [self, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const set = contradictingGroups.get(self.index) ?? new Set<number>();
      for (const s of other.sourceIds) set.add(g.groupOf.get(s)!);
      contradictingGroups.set(self.index, set);
    }
  }
  return contradictingGroups;
}

/**
 * How much of the evidence on the question's proposition goes against each claim that takes a stance on
 * it: the independence groups on the other side (its own group left out) over all groups that take a
 * side, o / (o + m) with m the groups on its own side. A lone refutation against many supporting sources
 * weighs little on them and much on itself; evenly split sources give every claim 0.5.
 */
function stanceLevels(g: EvidenceGraph): Map<string, number> {
  const levels = new Map<string, number>();
  if (!g.stances) return levels;
  const side = { supports: new Set<number>(), refutes: new Set<number>() };
  const stanceClaims = g.claims.filter((c) => g.stances!.judgements.has(c.id));
  for (const claim of stanceClaims) {
    const stance = g.stances.judgements.get(claim.id)!.stance;
    if (stance !== 'neutral') side[stance].add(g.groupOf.get(claim.source_id)!);
  }
  for (const claim of stanceClaims) {
    const stance = g.stances.judgements.get(claim.id)!.stance;
    if (stance === 'neutral') continue;
    const own = g.groupOf.get(claim.source_id)!;
    const other = side[stance === 'supports' ? 'refutes' : 'supports'];
    const opposing = other.size - (other.has(own) ? 1 : 0);
    if (opposing > 0) levels.set(claim.id, opposing / (opposing + side[stance].size));
  }
  return levels;
}

/**
 * One number per claim for ranking and finding confidence: the claim's own confidence times a blend of
 * its scores, contradictions pulling it down (documented in docs/evidence-scoring.md).
 */
export function claimStrength(claimConfidence: number, e: EvidenceDraft): number {
  const blend =
    0.25 * e.source_independence_score +
    0.25 * e.cross_source_support +
    0.15 * e.primary_source_proximity +
    0.2 * e.evidence_directness +
    0.15 * e.date_relevance_score;
  return round2(claimConfidence * (0.4 + 0.6 * blend) * (1 - 0.5 * e.contradiction_level));
}
