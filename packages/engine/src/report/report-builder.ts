// The extractive report's sections written from the ranked findings (rank-findings.ts): the summary, the findings,
// the disagreements, the uncertainties, the source statistics and the methodology, in the run's language.
import { findingCitation, type EvidenceDraft, type Plan, type ReportBody, type SourceControls } from '@research/core';
import { NEGATION_FIRST } from '../compare/contradiction';
import type { EvidenceGraph } from '../compare/evidence-graph';
import { summarizeNotes, type ParsedNotes, type RunNote } from '../notes';
import type { Gaps } from '../rounds/gap-analysis';
import { contentTerms } from '../text/tokens';
import { asksForFact, SUMMARY_FINDINGS, type RankedFinding, type RankedFindings } from './rank-findings';
import { englishFallback, hasReportText, reportText, type ReportText } from './report-text';
import { standaloneText } from './standalone';

export interface ReportInput {
  query: string;
  language: string;
  plan: Plan | null;
  graph: EvidenceGraph;
  evidence: EvidenceDraft[];
  gaps: Gaps | null;
  /** The run's notes: what happened during it (read, never changed). */
  notes: readonly RunNote[];
  rounds: number;
  /** Search queries sent over the run (usage.search_queries). */
  queriesSent: number;
  generatedAt: Date;
  /** The run's source controls (null or absent: none); the methodology names them. */
  sourceControls?: SourceControls | null;
}

/** Ends a sentence with the findings it cites: "Text [F1]." */
function cite(text: string, numbers: number[]): string {
  const body = text.trim().replace(/[.!?…]+["'”»]*$/u, (m) => (m.length > 1 ? m.slice(1) : ''));
  return `${body} ${numbers.map(findingCitation).join('')}.`;
}

type ClaimOf = Map<string, EvidenceGraph['claims'][number]>;

/**
 * The summary: one cited sentence per leading finding, and one about the disagreements among them; when no
 * statement of the sources read is about the question, a plain sentence saying that they do not answer it.
 */
function summaryOf(ranked: RankedFindings, input: ReportInput, claims: ClaimOf, t: ReportText) {
  const { graph, language } = input;
  const findingNumber = findingNumbers(ranked);
  const sentences = ranked.slice(0, SUMMARY_FINDINGS).map((r, i) => cite(r.finding.text, [i + 1]));
  // The first sentence is read alone: one that leans on the sentences before it in its source ("But a new report
  // calls that into question") comes with them. (The finding keeps the claim's own words: its quote is the claim.)
  const lead = ranked[0] && claims.get(ranked[0].claimId);
  if (lead && ranked[0]!.finding.text === lead.claim_text)
    sentences[0] = cite(standaloneText(lead, graph.sources.get(lead.source_id), language), [1]);
  // The answer first: its span, as its source writes it, before the finding that states it when the finding's
  // words do not hold it ("Tony Burke: Anthony Stephen Burke … is a Labor member …"); or, for a question
  // after a fact that no statement gives, a sentence saying so.
  const span = ranked.answer?.span;
  if (span && sentences.length > 0 && !sentences[0]!.includes(span)) sentences[0] = `${span}: ${sentences[0]}`;
  if (!ranked.answer && ranked.length > 0 && asksForFact(ranked.asked)) sentences.unshift(t.answerNotFound);
  const disputed = graph.contradictions
    .flatMap((c) => [findingNumber.get(c.a.index), findingNumber.get(c.b.index)])
    .filter((n): n is number => n !== undefined);
  if (disputed.length > 0) {
    const topic = contentTerms(ranked[disputed[0]! - 1]!.finding.text)
      .filter((w) => !/^\p{N}+$/u.test(w))
      .slice(0, 4)
      .join(' ');
    const cites = [...new Set(disputed)].slice(0, 4).map(findingCitation).join('');
    sentences.push(t.disagreementSentence(`"${topic}"`, cites));
  }
  if (sentences.length > 0) return sentences.join(' ');
  return graph.sources.size > 0 ? t.notAnswered(graph.sources.size) : t.noFindings;
}

/** Disagreements the report lists at most. */
export const MAX_DISAGREEMENTS = 10;

/** Each finding's number in the report (1-based), by its cluster's index. */
function findingNumbers(ranked: readonly RankedFinding[]): Map<number, number> {
  return new Map(ranked.map((r, i) => [r.cluster.index, i + 1]));
}

/**
 * The contradictions, each with one position per source (up to 3 a side) and the findings it touches;
 * disputes over the question's proposition first (their `claim` is the proposition, and each position
 * says whether its source supports or refutes it), then contradictions between claims of which one at
 * least is about the question.
 */
function disagreementsOf(graph: EvidenceGraph, claims: ClaimOf, ranked: RankedFindings, t: ReportText) {
  const findingNumber = findingNumbers(ranked);
  // Two claims that contradict each other are a disagreement of the report when one of them is about the
  // question: sources that do not address it give no findings, and no disagreements either.
  const listed = [
    ...graph.contradictions.filter((c) => c.contradiction.proposition !== undefined),
    ...graph.contradictions.filter(
      (c) => c.contradiction.proposition === undefined && (ranked.about.has(c.a.index) || ranked.about.has(c.b.index)),
    ),
  ].slice(0, MAX_DISAGREEMENTS);
  return listed.map((c) => {
    const proposition = c.contradiction.proposition;
    const sides = [
      { cluster: c.a, witness: c.claimA, stance: 'supports' },
      { cluster: c.b, witness: c.claimB, stance: 'refutes' },
    ] as const;
    const positions = sides.flatMap(({ cluster, witness, stance }) => {
      // A proposition's dispute shows the claim that took the stance first: it is the one judged.
      const sourceIds = [
        claims.get(witness)!.source_id,
        ...cluster.sourceIds.filter((s) => s !== claims.get(witness)!.source_id),
      ];
      return sourceIds.slice(0, 3).map((sourceId) => {
        const claim =
          sourceId === claims.get(witness)!.source_id
            ? claims.get(witness)!
            : cluster.claimIds.map((id) => claims.get(id)!).find((x) => x.source_id === sourceId)!;
        const source = graph.sources.get(sourceId)!;
        return {
          source: source.url || source.title || sourceId,
          source_id: sourceId,
          view: claim.claim_text,
          ...(proposition !== undefined ? { stance } : {}),
        };
      });
    });
    const findings = [findingNumber.get(c.a.index), findingNumber.get(c.b.index)].filter(
      (n): n is number => n !== undefined,
    );
    const firstDenies = proposition === undefined ? c.contradiction.detail === NEGATION_FIRST : false;
    return {
      claim: proposition ?? claims.get(c.claimA)!.claim_text,
      kind: c.contradiction.kind,
      // Numbers, years and verdict words are the sources' own; only the negation and judged details are wording.
      detail:
        c.contradiction.kind === 'negation'
          ? t.negationDetail(firstDenies)
          : c.contradiction.kind === 'stance'
            ? t.judgedDetail
            : c.contradiction.detail,
      positions,
      ...(findings.length > 0 ? { findings } : {}),
    };
  });
}

/** Budgets that ran out, failed searches, LLM fallbacks and dropped claims, as the events tell them. */
function eventUncertainties(notes: ParsedNotes, t: ReportText): string[] {
  const out: string[] = [];
  if (notes.stopped) out.push(t.stopped(t.steps[notes.stopped.step] ?? notes.stopped.step, notes.stopped.round));
  if (notes.searchBudget) out.push(t.searchBudget(notes.searchBudget.max, notes.searchBudget.dropped));
  if (notes.downloadBudget !== null) out.push(t.downloadBudget(notes.downloadBudget));
  for (const f of notes.searchFailures) out.push(t.searchFailures(f.round, f.failed, f.total));
  const fallbackByStep = new Map<string, { step: string; round: number; kind: string; count: number }>();
  for (const f of notes.fallbacks) {
    const key = `${f.step}:${f.round}:${f.kind}`;
    const prev = fallbackByStep.get(key);
    fallbackByStep.set(key, { ...f, count: (prev?.count ?? 0) + f.count });
  }
  for (const f of fallbackByStep.values())
    out.push(t.llmFallback(t.steps[f.step] ?? f.step, f.round, t.reasons[f.kind] ?? f.kind, f.count));
  if (notes.ungrounded > 0) out.push(t.ungrounded(notes.ungrounded));
  // Remarks in words pass through as they are.
  out.push(...notes.other);
  return out;
}

/** What the report counts of the run: its events, the sources it rejected, the disagreements it lists. */
interface Tally {
  notes: ParsedNotes;
  rejected: number;
  disagreements: number;
}

/** Everything a reader should weigh the findings against. */
function uncertaintiesOf(input: ReportInput, ranked: RankedFinding[], tally: Tally, t: ReportText): string[] {
  const { notes, disagreements } = tally;
  const { graph } = input;
  const out: string[] = [];
  if (graph.sources.size === 0) out.push(t.noSources);
  // One sentence for them all: ten lines of "Finding Fn rests on a single source" bury the other uncertainties.
  const single = ranked.flatMap((r, i) => (r.cluster.groups <= 1 ? [i + 1] : []));
  if (single.length > 0) out.push(t.singleSource(single.length, single.map((n) => `F${n}`).join(', ')));
  for (const f of input.gaps?.unansweredFields ?? [])
    out.push(t.unansweredField(f.startsWith('about:') ? f.slice(6) : (t.fieldNames[f] ?? f)));
  for (const q of input.gaps?.unsupportedSubQuestions ?? []) out.push(t.unsupportedSubQuestion(q));
  // The contradictions the report lists: those between statements not about the question are only counted (methodology).
  if (disagreements > 0) out.push(t.contradictions(disagreements));
  const analyzed = notes.engines.filter((e) => e.step === 'analyze');
  if (analyzed.length > 0 && analyzed.every((e) => e.mode === 'extractive')) out.push(t.disagreementsNeedModel);
  out.push(...eventUncertainties(notes, t));
  const after = input.sourceControls?.published_after;
  if (after && notes.undated > 0) out.push(t.undated(notes.undated, after));
  if (!hasReportText(input.language)) out.push(englishFallback(input.language));
  return [...new Set(out)];
}

/** Counts of the run's sources by type, domain, primary or secondary, and cited. */
function sourceStatisticsOf(input: ReportInput, ranked: RankedFinding[], claims: ClaimOf, rejected: number) {
  const { graph } = input;
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
  return {
    total_sources: sources.length,
    primary_sources: primary,
    secondary_sources: sources.length - primary,
    cited_sources: new Set(ranked.flatMap((r) => r.finding.source_ids)).size,
    independent_groups: new Set(graph.groupOf.values()).size,
    by_type: byType,
    domains,
    sources_rejected: rejected,
  };
}

/** Which engine each step ran with ("Planning: LLM; …"), per round when it changed. */
function enginesOf(notes: ParsedNotes, t: ReportText): string {
  return ['plan', 'analyze', 'compare', 'synthesize']
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
}

/** The sentence naming the run's source controls and what they left out; empty without controls. */
function controlsSentence(controls: SourceControls | null | undefined, notes: ParsedNotes, t: ReportText): string {
  if (!controls) return '';
  const c = t.controls;
  const set = [
    controls.include_domains.length > 0 ? c.only(controls.include_domains.join(', ')) : '',
    controls.exclude_domains.length > 0 ? c.none(controls.exclude_domains.join(', ')) : '',
    controls.published_after ? c.after(controls.published_after) : '',
    controls.max_sources !== null ? c.max(controls.max_sources) : '',
  ].filter(Boolean);
  const left = [
    notes.filtered.domain > 0 ? c.otherDomains(notes.filtered.domain) : '',
    notes.filtered.date > 0 && controls.published_after ? c.before(notes.filtered.date, controls.published_after) : '',
  ].filter(Boolean);
  if (set.length === 0) return '';
  return ` ${c.label}: ${set.join('; ')}.${left.length > 0 ? ` ${c.leftOut}: ${left.join(', ')}.` : ''}`;
}

/** How the run searched, read and compared, in the run's language. */
function methodologyOf(input: ReportInput, ranked: RankedFindings, tally: Tally, t: ReportText): string {
  const { notes, rejected, disagreements } = tally;
  const { graph } = input;
  const fetched = notes.fetches.reduce((n, f) => n + f.accepted, 0);
  const perRound = [...notes.searches]
    .sort((a, b) => a.round - b.round)
    .map((s) => `${t.round(s.round)}: ${s.sent}`)
    .join(', ');
  return (
    t.methodology({
      rounds: input.rounds,
      queries: input.queriesSent,
      perRound: perRound || '-',
      // A follow-up's inherited sources were not fetched by it (the methodology's last sentence names them).
      fetched: fetched || Math.max(0, graph.sources.size - (notes.inherited?.sources ?? 0)),
      rejected,
      claims: graph.claims.length,
      clusters: graph.clusters.length,
      multiSource: graph.clusters.filter((c) => c.groups > 1).length,
      about: ranked.about.size,
      contradictions: graph.contradictions.length,
      disagreements,
      engines: enginesOf(notes, t) || '-',
    }) +
    controlsSentence(input.sourceControls, notes, t) +
    (notes.inherited ? ` ${t.inherited(notes.inherited.sources, notes.inherited.claims)}` : '')
  );
}

/**
 * The extractive report (SPEC 2.6): findings from the ranked propositions, a summary whose every
 * sentence cites the findings it states, disagreements from the contradictions with one position per
 * source, uncertainties (single-source findings, unanswered fields and sub-questions, budgets, fallbacks)
 * and statistics and methodology from the run's records and events.
 */
export function buildReport(input: ReportInput, ranked: RankedFindings): ReportBody {
  const t = reportText(input.language);
  const claims: ClaimOf = new Map(input.graph.claims.map((c) => [c.id, c]));
  const notes = summarizeNotes(input.notes);
  const rejected = notes.fetches.reduce((n, f) => n + Math.max(0, f.candidates - f.accepted), 0);
  const disagreements = disagreementsOf(input.graph, claims, ranked, t);
  const tally = { notes, rejected, disagreements: disagreements.length };
  return {
    summary: summaryOf(ranked, input, claims, t),
    findings: ranked.map((r) => r.finding),
    disagreements,
    uncertainties: uncertaintiesOf(input, ranked, tally, t),
    source_statistics: sourceStatisticsOf(input, ranked, claims, rejected),
    methodology: methodologyOf(input, ranked, tally, t),
    generated_at: input.generatedAt.toISOString(),
  };
}
