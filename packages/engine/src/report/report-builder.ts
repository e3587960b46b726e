import type { EvidenceDraft, Finding, Plan, ReportBody } from '@research/core';
import { NEGATION_FIRST } from '../compare/contradiction';
import { claimStrength } from '../compare/evidence-scores';
import type { Cluster, EvidenceGraph } from '../compare/evidence-graph';
import { parseNotes } from '../notes';
import type { Gaps } from '../rounds/gap-analysis';
import { contentTerms, overlapCount, round2, termSet } from '../text/tokens';
import { englishFallback, hasReportText, reportText } from './report-text';

/** Findings a report lists at most, and how many of them the summary states. */
export const MAX_FINDINGS = 10;
export const SUMMARY_FINDINGS = 5;

export interface ReportInput {
  query: string;
  language: string;
  plan: Plan | null;
  graph: EvidenceGraph;
  evidence: EvidenceDraft[];
  gaps: Gaps | null;
  notes: readonly string[];
  rounds: number;
  /** Search queries sent over the run (usage.search_queries). */
  queriesSent: number;
  generatedAt: Date;
}

export interface RankedFinding {
  cluster: Cluster;
  finding: Finding;
  /** The claims behind it, strongest first. */
  claimTexts: string[];
}

/** Ends a sentence with its citations: "Text [1]." */
export function cite(text: string, numbers: number[]): string {
  const body = text.trim().replace(/[.!?…]+["'”»]*$/u, (m) => (m.length > 1 ? m.slice(1) : ''));
  return `${body} ${numbers.map((n) => `[${n}]`).join('')}.`;
}

/**
 * Ranks the propositions of the run into findings: relevance to the question (query terms weigh
 * double, sub-question terms once) plus the cluster's strongest claim; each finding carries every
 * source of its cluster and a confidence = mean claimStrength over the cluster's claims.
 */
export function rankFindings(input: Pick<ReportInput, 'query' | 'plan' | 'graph' | 'evidence'>): RankedFinding[] {
  const { graph } = input;
  const evidence = new Map(input.evidence.map((e) => [e.claim_id, e]));
  const claims = new Map(graph.claims.map((c) => [c.id, c]));
  const queryTerms = termSet(input.query, false);
  const planTerms = new Set((input.plan?.sub_questions ?? []).flatMap((q) => [...termSet(q, false)]));
  const ranked = graph.clusters.map((cluster) => {
    const members = cluster.claimIds.map((id) => {
      const claim = claims.get(id)!;
      const e = evidence.get(id);
      const strength = e ? claimStrength(claim.confidence, e) : claim.confidence * 0.4;
      return { claim, strength };
    });
    members.sort((a, b) => b.strength - a.strength || a.claim.position - b.claim.position);
    const best = members[0]!;
    const terms = termSet(best.claim.claim_text, false);
    const relevance = 2 * overlapCount(terms, queryTerms) + overlapCount(terms, planTerms);
    const confidence = round2(members.reduce((n, m) => n + m.strength, 0) / members.length);
    return {
      cluster,
      relevance,
      score: relevance * (0.5 + best.strength) + cluster.groups,
      finding: { text: best.claim.claim_text, confidence, source_ids: [...cluster.sourceIds] },
      claimTexts: members.map((m) => m.claim.claim_text),
    };
  });
  return ranked
    .filter((r) => r.relevance > 0 && r.finding.source_ids.length > 0)
    .sort((a, b) => b.score - a.score || a.cluster.index - b.cluster.index)
    .slice(0, MAX_FINDINGS)
    .map(({ cluster, finding, claimTexts }) => ({ cluster, finding, claimTexts }));
}

/**
 * The extractive report (SPEC 2.6): findings from the ranked propositions, a summary whose every
 * sentence cites the findings it states, disagreements from the contradictions with one position per
 * source, uncertainties (single-source findings, unanswered fields and sub-questions, budgets, fallbacks)
 * and statistics and methodology from the run's records and notes.
 */
export function buildReport(input: ReportInput, ranked = rankFindings(input)): ReportBody {
  const t = reportText(input.language);
  const { graph } = input;
  const claims = new Map(graph.claims.map((c) => [c.id, c]));
  const findingNumber = new Map(ranked.map((r, i) => [r.cluster.index, i + 1]));

  const summarySentences = ranked.slice(0, SUMMARY_FINDINGS).map((r, i) => cite(r.finding.text, [i + 1]));
  const disputedFindings = graph.contradictions
    .flatMap((c) => [findingNumber.get(c.a.index), findingNumber.get(c.b.index)])
    .filter((n): n is number => n !== undefined);
  if (disputedFindings.length > 0) {
    const topic = contentTerms(ranked[disputedFindings[0]! - 1]!.finding.text)
      .filter((w) => !/^\p{N}+$/u.test(w))
      .slice(0, 4)
      .join(' ');
    const cites = [...new Set(disputedFindings)]
      .slice(0, 4)
      .map((n) => `[${n}]`)
      .join('');
    summarySentences.push(t.disagreementSentence(`"${topic}"`, cites));
  }
  const summary = summarySentences.length ? summarySentences.join(' ') : t.noFindings;

  const disagreements = graph.contradictions.slice(0, 10).map((c) => {
    const positions = [c.a, c.b].flatMap((cluster) =>
      cluster.sourceIds.slice(0, 3).map((sourceId) => {
        const claim = cluster.claimIds.map((id) => claims.get(id)!).find((x) => x.source_id === sourceId)!;
        const source = graph.sources.get(sourceId)!;
        return { source: source.url || source.title || sourceId, source_id: sourceId, view: claim.claim_text };
      }),
    );
    return {
      claim: claims.get(c.claimA)!.claim_text,
      kind: c.contradiction.kind,
      // Numbers, years and verdict words are the sources' own; only the negation detail is wording.
      detail:
        c.contradiction.kind === 'negation'
          ? t.negationDetail(c.contradiction.detail === NEGATION_FIRST)
          : c.contradiction.detail,
      positions,
      ...(findingNumber.has(c.a.index) || findingNumber.has(c.b.index)
        ? {
            findings: [findingNumber.get(c.a.index), findingNumber.get(c.b.index)].filter(
              (n): n is number => n !== undefined,
            ),
          }
        : {}),
    };
  });

  const notes = parseNotes(input.notes);
  const uncertainties: string[] = [];
  if (graph.sources.size === 0) uncertainties.push(t.noSources);
  ranked.forEach((r, i) => {
    if (r.cluster.groups <= 1) uncertainties.push(t.singleSource(i + 1));
  });
  for (const f of input.gaps?.unansweredFields ?? [])
    uncertainties.push(t.unansweredField(f.startsWith('about:') ? f.slice(6) : (t.fieldNames[f] ?? f)));
  for (const q of input.gaps?.unsupportedSubQuestions ?? []) uncertainties.push(t.unsupportedSubQuestion(q));
  if (graph.contradictions.length > 0) uncertainties.push(t.contradictions(graph.contradictions.length));
  if (notes.searchBudget) uncertainties.push(t.searchBudget(notes.searchBudget.max, notes.searchBudget.dropped));
  if (notes.downloadBudget !== null) uncertainties.push(t.downloadBudget(notes.downloadBudget));
  for (const f of notes.searchFailures) uncertainties.push(t.searchFailures(f.round, f.failed, f.total));
  const fallbackByStep = new Map<string, { step: string; round: number; kind: string; count: number }>();
  for (const f of notes.fallbacks) {
    const key = `${f.step}:${f.round}:${f.kind}`;
    const prev = fallbackByStep.get(key);
    fallbackByStep.set(key, { ...f, count: (prev?.count ?? 0) + f.count });
  }
  for (const f of fallbackByStep.values())
    uncertainties.push(t.llmFallback(t.steps[f.step] ?? f.step, f.round, t.reasons[f.kind] ?? f.kind, f.count));
  if (notes.ungrounded > 0) uncertainties.push(t.ungrounded(notes.ungrounded));
  // Notes written by other parts as plain sentences pass through as they are.
  uncertainties.push(...notes.other);
  if (!hasReportText(input.language)) uncertainties.push(englishFallback(input.language));

  const sources = [...graph.sources.values()];
  const byType: Record<string, number> = {};
  for (const s of sources) byType[s.source_type ?? 'other'] = (byType[s.source_type ?? 'other'] ?? 0) + 1;
  const domains: Record<string, number> = {};
  for (const s of sources) domains[s.domain] = (domains[s.domain] ?? 0) + 1;
  const primaryClaimsBySource = new Map<string, boolean>();
  for (const e of input.evidence) {
    const claim = claims.get(e.claim_id);
    if (claim && e.evidence_type === 'primary_report') primaryClaimsBySource.set(claim.source_id, true);
  }
  const primary = sources.filter((s) => primaryClaimsBySource.get(s.id)).length;
  const citedSources = new Set(ranked.flatMap((r) => r.finding.source_ids));

  const fetched = notes.fetches.reduce((n, f) => n + f.accepted, 0);
  const rejected = notes.fetches.reduce((n, f) => n + Math.max(0, f.candidates - f.accepted), 0);
  const perRound = notes.searches
    .sort((a, b) => a.round - b.round)
    .map((s) => `${t.round(s.round)}: ${s.sent}`)
    .join(', ');
  const engines = ['plan', 'analyze', 'compare', 'synthesize']
    .map((step) => {
      const used = notes.engines.filter((e) => e.step === step).sort((a, b) => a.round - b.round);
      if (used.length === 0) return null;
      const modes = [...new Set(used.map((u) => u.mode))];
      const label =
        modes.length === 1
          ? t.modes[modes[0]!]
          : used.map((u) => `${t.modes[u.mode]} (${t.round(u.round)})`).join(', ');
      return `${t.steps[step]}: ${label}`;
    })
    .filter(Boolean)
    .join('; ');
  const methodology = t.methodology({
    rounds: input.rounds,
    queries: input.queriesSent,
    perRound: perRound || '-',
    fetched: fetched || sources.length,
    rejected,
    claims: graph.claims.length,
    clusters: graph.clusters.length,
    multiSource: graph.clusters.filter((c) => c.groups > 1).length,
    contradictions: graph.contradictions.length,
    engines: engines || '-',
  });

  return {
    summary,
    findings: ranked.map((r) => r.finding),
    disagreements,
    uncertainties: [...new Set(uncertainties)],
    source_statistics: {
      total_sources: sources.length,
      primary_sources: primary,
      secondary_sources: sources.length - primary,
      cited_sources: citedSources.size,
      independent_groups: new Set(graph.groupOf.values()).size,
      by_type: byType,
      domains,
      sources_rejected: rejected,
    },
    methodology,
    generated_at: input.generatedAt.toISOString(),
  };
}
