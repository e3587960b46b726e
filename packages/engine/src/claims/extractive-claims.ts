import {
  createPause,
  normalizeWhitespace,
  type ClaimDraft,
  type ClaimType,
  type Plan,
  type Pause,
} from '@research/core';
import { stableId } from '../ids';
import { languageProfile } from '../text/language';
import { questionNames } from '../text/names';
import { sentenceSteps, type Sentence } from '../text/sentences';
import { overlapCount, quantities, round2, termSet, years } from '../text/tokens';
import { claimTextOf } from './claim-text';
import { statementCheck } from './statements';

/**
 * Claims kept per source (or per chunk of a long source) by the extractive engine. Swept on the multihop tune parts
 * (first 300 of each; answer in report / in the first sentence, HotpotQA / 2Wiki / MuSiQue; every gold page read
 * unchanged): 6: 239 / 161 / 25 and 133 / 129 / 13; 8: 239 / 166 / 26 and 133 / 133 / 13; 12: 239 / 167 / 26 and 133 /
 * 131 / 13 (of 284 / 198 / 61).
 */
export const CLAIMS_PER_SOURCE = 8;

const COMPARISON =
  /\b(than|more|less|larger|smaller|higher|lower|als|mehr|weniger|größer|kleiner|höher|niedriger|plus|moins|más|menos|più|meno)\b|\p{L}{3,}est\b/iu;

export interface PlanTerms {
  /** Terms of the query itself (weighted double). */
  query: Set<string>;
  /** Terms of the sub-questions, planned queries and required fields. */
  plan: Set<string>;
}

/** The terms a sentence must share to be about the question. */
export function planTerms(plan: Plan | null, query: string): PlanTerms {
  const texts = plan
    ? [
        ...plan.sub_questions,
        ...plan.search_queries.map((q) => q.query),
        ...plan.required_fields.map((f) => f.replace(/^about:/, '')),
      ]
    : [];
  return { query: termSet(query, false), plan: new Set(texts.flatMap((t) => [...termSet(t, false)])) };
}

/** How checkable a sentence is: numbers, dates, names and comparisons each add. */
export function checkability(sentence: string): number {
  let score = 0;
  if (quantities(sentence).length > 0) score += 1;
  if (years(sentence).length > 0) score += 1;
  // Capitalised words after the first: names (German nouns count too, with less weight there).
  const names = (sentence.slice(1).match(/(?<=\s)\p{Lu}\p{Ll}+/gu) ?? []).length;
  if (names > 0) score += 0.5;
  if (COMPARISON.test(sentence)) score += 0.5;
  return score;
}

/** Whether a sentence states a number, a date or a name (see questionNames for names in German). */
function statesFact(sentence: string, language: string): boolean {
  return quantities(sentence).length > 0 || years(sentence).length > 0 || questionNames(sentence, language).length > 0;
}

/** The claim type from the language's cue words; a checkable sentence without cues is a fact. */
export function claimTypeOf(sentence: string, language: string): ClaimType {
  const profile = languageProfile(language);
  // Cue words of English too: sources are often written in English whatever the run's language. An
  // attributed view ("critics argue that … will") is an opinion before it is a prediction.
  const cues = profile.code === 'en' ? [...profile.cues] : [...profile.cues, ...languageProfile('en').cues];
  for (const type of ['opinion', 'recommendation', 'prediction'] as const)
    if (cues.some(([t, cue]) => t === type && cue.test(sentence))) return type;
  return quantities(sentence).length > 0 || years(sentence).length > 0 ? 'fact' : 'claim';
}

/** Relevance of a sentence to the plan: shared query terms count double. */
export function relevance(sentenceTerms: Set<string>, terms: PlanTerms): number {
  return 2 * overlapCount(sentenceTerms, terms.query) + overlapCount(sentenceTerms, terms.plan);
}

/**
 * The extractive claim extractor: the sentences of a text, those relevant to the plan's sub-questions first, then
 * the most checkable of the others (a number, a date, a name), up to `limit`, each quoted verbatim as its own evidence span (so grounding holds by construction). Only
 * statements count: headings, navigation, site and legal notices, reference entries and the like never
 * become claims (see statements.ts).
 * `text` is the source's content or one chunk of it; ids are stable for the same source and sentence, and
 * a sentence the text repeats is one claim.
 * A long text is read a slice at a time (`pause` between slices), so it never holds the event loop.
 */
export async function extractClaims(
  params: {
    runId: string;
    sourceId: string;
    text: string;
    language: string;
    terms: PlanTerms;
    limit?: number;
  },
  pause: Pause = createPause(),
): Promise<ClaimDraft[]> {
  const limit = params.limit ?? CLAIMS_PER_SOURCE;
  const hedges = languageProfile(params.language).hedges;
  const scored: Array<{ sentence: Sentence; order: number; rel: number; check: number; score: number }> = [];
  const statement = statementCheck(params.text);
  let order = 0;
  for (const sentence of sentenceSteps(params.text, params.language)) {
    if (sentence === null) {
      await pause();
      continue;
    }
    const rel = relevance(termSet(sentence.text, false), params.terms);
    const current = order++;
    if (statement(sentence.text, sentence.start) !== null) continue;
    const check = checkability(sentence.text);
    // A sentence sharing no word with the plan is a claim only when it states a number, a date or a name (in
    // German, whose nouns are all capitalised, a name of several words).
    if (rel <= 0 && !statesFact(sentence.text, params.language)) continue;
    scored.push({ sentence, order: current, rel, check, score: rel + check });
  }
  // A sentence the text repeats is one claim (its id is the same): the best-placed copy is kept.
  const spans = new Set<string>();
  const chosen: Array<(typeof scored)[number] & { span: string }> = [];
  // Sentences sharing a word with the plan first; the others of a short page after them. The second page of a
  // question of two steps says what was asked of a name the question never gives ("He was the son of actress
  // Mary Martin."), in words the question need not share.
  const related = (x: { rel: number }) => (x.rel > 0 ? 1 : 0);
  for (const s of scored.sort((a, b) => related(b) - related(a) || b.score - a.score || a.order - b.order)) {
    if (chosen.length >= limit) break;
    const span = normalizeWhitespace(s.sentence.text);
    if (spans.has(span)) continue;
    spans.add(span);
    chosen.push({ ...s, span });
  }
  chosen.sort((a, b) => a.order - b.order);
  return chosen.map(({ span, rel, check }) => {
    const type = claimTypeOf(span, params.language);
    let confidence = 0.45 + 0.07 * Math.min(rel, 4) + 0.05 * Math.min(check, 2);
    if (hedges.test(span)) confidence *= 0.8;
    if (type === 'opinion' || type === 'prediction') confidence *= 0.85;
    return {
      id: stableId(params.runId, params.sourceId, span),
      source_id: params.sourceId,
      claim_text: claimTextOf(span),
      evidence_span: span,
      claim_type: type,
      confidence: round2(confidence),
    };
  });
}
