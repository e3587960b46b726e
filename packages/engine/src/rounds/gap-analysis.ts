import type { Plan } from '@research/core';
import type { EvidenceGraph } from '../compare/evidence-graph';
import { languageProfile } from '../text/language';
import { contentTerms, overlapCount, quantities, termSet, years } from '../text/tokens';
import type { PlannedQuery } from '../plan/queries';

export interface Gaps {
  /** Required fields no claim answers. */
  unansweredFields: string[];
  /** Sub-questions no claim bears on. */
  unsupportedSubQuestions: string[];
  /** Clusters (propositions) backed by one independence group only, most relevant first. */
  singleSource: Array<{ cluster: number; text: string }>;
  /** Contradicting propositions, as text. */
  contradictions: Array<{ a: string; b: string }>;
}

const CAUSAL =
  /\b(because|caused?|causes|due to|leads? to|result(?:s|ed)? in|weil|verursach\w*|ursache\w*|führt|durch|parce que|provoque|porque|causa|perché)\b/i;
const COMPARATIVE = /\b(than|als|que|di)\b|\p{L}{3,}(er|est|ere|ste)\b/iu;
const DEFINITION =
  /\b(is|are|was|ist|sind|war|est|sont|es|son|è|sono)\s+(a|an|the|ein|eine|der|die|das|un|une|una|uno|il|la|el)\b/i;

function answersField(field: string, texts: string[], query: Set<string>): boolean {
  switch (field) {
    case 'key_facts':
      return texts.length > 0;
    case 'figures':
      return texts.some((t) => quantities(t).length > 0);
    case 'dates':
      return texts.some((t) => years(t).length > 0);
    case 'definition':
      return texts.some((t) => DEFINITION.test(t) && overlapCount(termSet(t, false), query) > 0);
    case 'causes':
      return texts.some((t) => CAUSAL.test(t) && overlapCount(termSet(t, false), query) > 0);
    case 'comparison':
      return texts.some((t) => COMPARATIVE.test(t) && overlapCount(termSet(t, false), query) > 0);
    case 'verdict':
      return texts.some((t) => overlapCount(termSet(t, false), query) >= Math.min(2, query.size));
    default: {
      // A named entity (about:X) or a free-text field from an LLM plan: half its terms in one claim.
      const wanted = termSet(field.replace(/^about:/, ''), false);
      if (wanted.size === 0) return true;
      const need = Math.max(1, Math.ceil(wanted.size / 2));
      return texts.some((t) => overlapCount(termSet(t, false), wanted) >= need);
    }
  }
}

/**
 * What the evidence so far leaves open: required fields and sub-questions without a claim, propositions
 * from a single source, and contradictions. Drives the next round's queries and the report's
 * uncertainties; pure given the plan and the evidence graph.
 */
export function findGaps(plan: Plan, query: string, graph: EvidenceGraph): Gaps {
  const texts = graph.claims.map((c) => c.claim_text);
  const queryTerms = termSet(query, false);
  const unansweredFields = plan.required_fields.filter((f) => !answersField(f, texts, queryTerms));
  const claimTerms = texts.map((t) => termSet(t, false));
  const unsupportedSubQuestions = plan.sub_questions.filter((q) => {
    const all = termSet(q, false);
    // Template words of the extractive planner ("established facts") are not what the question asks:
    // the sub-question's own topic is its terms shared with the query, when there are any.
    const topical = new Set([...all].filter((t) => queryTerms.has(t)));
    const wanted = topical.size > 0 ? topical : all;
    if (wanted.size === 0) return false;
    const need = Math.max(1, Math.ceil(wanted.size * 0.5));
    return !claimTerms.some((t) => overlapCount(t, wanted) >= need);
  });
  const byId = new Map(graph.claims.map((c) => [c.id, c]));
  const singleSource = graph.clusters
    .filter((c) => c.groups <= 1)
    .map((c) => {
      const text = byId.get(c.claimIds[0]!)!.claim_text;
      return { cluster: c.index, text, rel: overlapCount(termSet(text, false), queryTerms) };
    })
    .filter((c) => c.rel > 0)
    .sort((a, b) => b.rel - a.rel || a.cluster - b.cluster)
    .map(({ cluster, text }) => ({ cluster, text }));
  const contradictions = graph.contradictions.map((c) => ({
    a: byId.get(c.claimA)!.claim_text,
    b: byId.get(c.claimB)!.claim_text,
  }));
  return { unansweredFields, unsupportedSubQuestions, singleSource, contradictions };
}

function keyTerms(text: string, n: number): string {
  return contentTerms(text).slice(0, n).join(' ');
}

const FIELD_QUERY_WORDS: Record<string, Record<string, string>> = {
  de: { figures: 'Zahlen', dates: 'Datum', definition: 'Definition', causes: 'Ursachen', comparison: 'Vergleich' },
  en: { figures: 'statistics', dates: 'date', definition: 'definition', causes: 'causes', comparison: 'comparison' },
};

/**
 * The next round's queries from the gaps, in priority order: unanswered required fields, unsupported
 * sub-questions, contradictions to settle, single-source propositions to confirm. Queries already sent
 * (`sent`) are skipped; at most `limit` are returned.
 */
export function gapQueries(params: {
  gaps: Gaps;
  plan: Plan;
  query: string;
  language: string;
  sent: ReadonlySet<string>;
  limit: number;
}): PlannedQuery[] {
  const { gaps, plan, language } = params;
  const topic = keyTerms(params.query, 3) || params.query.slice(0, 100);
  const words = FIELD_QUERY_WORDS[language.slice(0, 2)] ?? FIELD_QUERY_WORDS.en!;
  const counterWord = languageProfile(language).counterTerms[0];
  const candidates: PlannedQuery[] = [
    ...gaps.unansweredFields.map((f) => ({
      query: f.startsWith('about:') ? `${f.slice(6)} ${topic}` : `${topic} ${words[f] ?? f.replace(/_/g, ' ')}`,
      dimension: 'gap:required_field',
    })),
    ...gaps.unsupportedSubQuestions.map((q) => ({ query: keyTerms(q, 6), dimension: 'gap:sub_question' })),
    ...gaps.contradictions.slice(0, 2).map((c) => ({ query: keyTerms(c.a, 6), dimension: 'gap:contradiction' })),
    ...gaps.singleSource.slice(0, 3).map((s) => ({ query: keyTerms(s.text, 6), dimension: 'gap:single_source' })),
    // Counter-evidence the first round may not have reached.
    ...plan.counter_evidence_queries.map((q) => ({ query: q, dimension: 'counter_evidence' })),
    { query: `${topic} ${counterWord}`, dimension: 'counter_evidence' },
  ];
  const seen = new Set([...params.sent].map((q) => q.toLowerCase()));
  const out: PlannedQuery[] = [];
  for (const c of candidates) {
    const key = c.query.trim().toLowerCase();
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push({ query: c.query.trim(), dimension: c.dimension });
    if (out.length >= params.limit) break;
  }
  return out;
}
