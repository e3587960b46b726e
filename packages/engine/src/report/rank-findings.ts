// Which propositions of a run are findings of its report, in what order, and the answer the first of them states:
// relevance to the question (its concepts, its subjects, the names that link it to its answer), the answer found
// among the claims, and diversity. report-builder.ts writes the report's sections from what this returns.
import { createPause, type EvidenceDraft, type Finding, type Plan } from '@research/core';
import { findAnswer, MIN_COVERAGE, type AnswerReading, type FoundAnswer } from '../answer/find-answer';
import { readQuestion, type AskedQuestion } from '../answer/question';
import { answerSpans } from '../answer/spans';
import { claimStrength } from '../compare/evidence-scores';
import type { Cluster } from '../compare/clusters';
import type { EvidenceGraph } from '../compare/evidence-graph';
import { nameKey, namedEntities, subjectKey } from '../text/names';
import { jaccard, overlapCount, round2, termSet } from '../text/tokens';

/**
 * Findings a report lists at most, and how many of them the summary states: what a reader takes in at a glance.
 * Swept with `npm run eval -- multihop --replay` on the saved runs (answer in report, HotpotQA / 2Wiki / MuSiQue, tune
 * of 284 / 198 / 61 then check of 374 / 108 / 39): 8 findings: 236 / 163 / 24, check 309 / 93 / 16; 10: 239 / 166 /
 * 26, check 315 / 96 / 16; 12: 241 / 168 / 27, check 317 / 97 / 17 (more findings hold more answers, and a longer
 * report). 3, 5 or 7 summary sentences: the same figures (the answer leads it).
 */
export const MAX_FINDINGS = 10;
export const SUMMARY_FINDINGS = 5;

export interface RankedFinding {
  cluster: Cluster;
  finding: Finding;
  /** The claim whose words the finding shows. */
  claimId: string;
  /** The claims behind it, strongest first. */
  claimTexts: string[];
}

/** The answer a report opens with: the first finding states it (see findAnswer). */
export interface ReportAnswer {
  /** The part of the first finding that answers, as written in its source (a name, a date, a number). */
  span: string | null;
  found: FoundAnswer;
}

/**
 * The findings in report order, the propositions (cluster indices) about the question, findings or not, what
 * the question asks for, and the answer the first finding states (null when no statement read gives it).
 */
export type RankedFindings = RankedFinding[] & {
  readonly about: ReadonlySet<number>;
  readonly asked: AskedQuestion;
  readonly answer: ReportAnswer | null;
};

/** Claims whose names link the question to the pages that answer it (see linksOf). */
// Swept as MAX_FINDINGS (answer in report): 3: 240 / 166 / 26, check 314 / 95 / 16; 5: 239 / 166 / 26, check 315 / 96
// / 16; 8: 238 / 166 / 26, check 314 / 95 / 16.
const LINKING_CLAIMS = 5;

/** What a question asks about: its concepts, and the subjects a statement may hold alone to be about it. */
interface QuestionTopic {
  /**
   * Every name the question holds (a multi-word name is one: "United States" is not two) and every other
   * content word, each as its stemmed terms.
   */
  concepts: Array<Set<string>>;
  /**
   * The names that are the question's subject: its only name, or each of the names it compares ("A or B",
   * "A and B"). A statement about one of them is about the question; a question naming things in different
   * roles ("Why did the United States lift sanctions on Sudan?") has none: its statements need two concepts.
   */
  subjects: Array<Set<string>>;
}

// What joins compared names: "A or B", "A and B", "A, B", "A vs. B", in the service's languages.
const COORDINATION = /^\s*(?:,\s*)?(?:or|and|vs\.?|versus|oder|und|ou|et|o|y|e)?\s*$/iu;

/** The concepts and subjects of a question (see QuestionTopic). */
function questionTopic(query: string): QuestionTopic {
  const concepts: Array<Set<string>> = [];
  const names: Array<{ terms: Set<string>; at: number; end: number }> = [];
  const named = new Set<string>();
  let from = 0;
  for (const name of namedEntities(query)) {
    const terms = termSet(name, false);
    if (terms.size === 0 || [...terms].every((t) => named.has(t))) continue;
    for (const t of terms) named.add(t);
    concepts.push(terms);
    const at = query.indexOf(name, from);
    if (at >= 0) from = at + name.length;
    names.push({ terms, at, end: at + name.length });
  }
  for (const t of termSet(query, false)) if (!named.has(t)) concepts.push(new Set([t]));
  const compared =
    names.length > 1 &&
    names.every((n, i) => i === 0 || (n.at >= 0 && COORDINATION.test(query.slice(names[i - 1]!.end, n.at))));
  const subjects = names.length === 1 || compared ? names.map((n) => n.terms) : [];
  return { concepts, subjects };
}

/** How many of the question's concepts a text's terms hold (a name counts when all its words are there). */
function conceptsHeld(terms: ReadonlySet<string>, concepts: ReadonlyArray<ReadonlySet<string>>): number {
  let held = 0;
  for (const concept of concepts) if ([...concept].every((t) => terms.has(t))) held++;
  return held;
}

/**
 * Concepts of the question a statement must hold to be about it: two (one when the question has only one).
 * One shared word is what any page shares with any question ("site", "United States"); two of the things a
 * question asks about together are what a statement on its subject holds. Statements that hold fewer reach
 * the report only through the names that link the question to its answer.
 * Swept as MAX_FINDINGS (answer in report): 1: 239 / 165 / 26, check 319 / 95 / 17; 2: 239 / 166 / 26, check 315 / 96 /
 * 16; 3: 236 / 170 / 21, check 308 / 98 / 15. One concept moves nothing on tune. On the local evaluation (answered:
 * answer in report of 43; unanswered: no findings of 30) 1: 35, 2/30; 2: 35, 2/30; 3: 32, 3/30.
 */
const ON_TOPIC_CONCEPTS = 2;

/** Whether a statement's terms are about the question: one of its subjects, or `onTopic` of its concepts. */
function aboutQuestion(terms: ReadonlySet<string>, ask: Pick<Ask, 'topic' | 'onTopic'>): boolean {
  if (ask.topic.subjects.some((subject) => [...subject].every((t) => terms.has(t)))) return true;
  return conceptsHeld(terms, ask.topic.concepts) >= ask.onTopic;
}

/**
 * Whether a sentence is about the question once its page's subject (the title's terms) stands in for the
 * "she", "it" or short name it uses: with the subject it holds what aboutQuestion asks, and it holds a
 * concept of the question of its own. A page on the question's topic says much that is not about the
 * question; what it says about the question names one more of its concepts ("VCU was founded in 1838").
 */
function aboutWithSubject(
  terms: ReadonlySet<string>,
  subject: ReadonlySet<string>,
  withSubject: ReadonlySet<string>,
  ask: Pick<Ask, 'topic' | 'onTopic'>,
) {
  const own = ask.topic.concepts.some((c) => [...c].every((t) => terms.has(t)) && ![...c].every((t) => subject.has(t)));
  return own && aboutQuestion(withSubject, ask);
}

/** The names that link the question to its answer (see linksOf). */
interface Links {
  /** Their words the question does not hold (they add to a claim's relevance). */
  terms: Set<string>;
  /** The closest claims' words (as nameKeys), their pages' subjects and their names (see linkOfPage). */
  written: Array<{ text: string; own: string; names: Set<string> }>;
}

/**
 * The names that link the question to its answer: the names the claims closest to the question give that the
 * question does not (the film's director, the band's label). (Not every name a hop searched: most lead nowhere
 * the question goes.) A sentence on the second page of a two-step question shares few words with the question, but its page
 * is about a name the first page gave. Without a claim about the question there is no first step, and no
 * link either.
 */
function linksOf(
  claims: ReadonlyArray<{ text: string; terms: ReadonlySet<string>; sourceId: string }>,
  ask: Pick<Ask, 'queryTerms' | 'topic' | 'onTopic'>,
  titleOf: (sourceId: string) => string,
): Links {
  const closest = claims
    .map(({ text, terms, sourceId }) => ({
      text,
      sourceId,
      about: aboutQuestion(terms, ask),
      held: conceptsHeld(terms, ask.topic.concepts),
      shared: overlapCount(terms, ask.queryTerms),
    }))
    .filter((c) => c.about)
    .sort((a, b) => b.held - a.held || b.shared - a.shared)
    .slice(0, LINKING_CLAIMS);
  const links: Links = { terms: new Set(), written: [] };
  if (closest.length === 0) return links;
  // The closest claims first: a page whose subject the first writes out is the strongest link.
  for (const c of closest) {
    const own = subjectKey(titleOf(c.sourceId));
    links.written.push({ text: ` ${nameKey(c.text)} `, own, names: new Set(namedEntities(c.text).map(subjectKey)) });
    for (const name of namedEntities(c.text)) {
      if (subjectKey(name) === own) continue;
      for (const t of termSet(name, false)) if (!ask.queryTerms.has(t)) links.terms.add(t);
    }
  }
  return links;
}

/**
 * Which of the closest claims leads to a page (as findAnswer's chains do, but for a subject the question's words
 * complete: it writes out the page's subject, a name of several words or one of its names), as that claim's place
 * in `links.written`, or -1. A page is no link of its own claims, nor the page of a name the question gives.
 */
function linkOfPage(pageTitle: string, links: Links, queryTerms: ReadonlySet<string>): number {
  const key = subjectKey(pageTitle);
  // The page of a name the question gives is the question's subject, not a link.
  if (!key || [...termSet(key, false)].every((t) => queryTerms.has(t))) return -1;
  return links.written.findIndex(
    (w) => w.own !== key && (w.names.has(key) || (key.includes(' ') && w.text.includes(` ${key} `))),
  );
}

interface Ask {
  query: string;
  queryTerms: Set<string>;
  topic: QuestionTopic;
  /** Concepts a statement holds to be about the question (ON_TOPIC_CONCEPTS, or all when fewer). */
  onTopic: number;
  planTerms: Set<string>;
  links: Links;
  asked: AskedQuestion;
  /** What each question term tells among the run's claims (see termWeights). */
  weights: Map<string, number>;
}

/**
 * What each question term tells among the run's claims: ln(1 + N / df), N the claims and df those holding
 * the term, scaled so the question's terms weigh 1 on average. A word every page of the topic repeats
 * ("university", "Kansas") tells little; the one word only the answer's sentence shares ("founded",
 * "fight song") tells most.
 */
function termWeights(claims: ReadonlyArray<ReadonlySet<string>>, queryTerms: ReadonlySet<string>) {
  const df = new Map([...queryTerms].map((t) => [t, 0]));
  for (const terms of claims) for (const t of terms) if (df.has(t)) df.set(t, df.get(t)! + 1);
  const idf = new Map([...df].map(([t, n]) => [t, Math.log(1 + claims.length / Math.max(1, n))]));
  const mean = [...idf.values()].reduce((a, b) => a + b, 0) / Math.max(1, idf.size);
  return new Map([...idf].map(([t, w]) => [t, mean > 0 ? w / mean : 1]));
}

function weightedOverlap(terms: ReadonlySet<string>, weights: ReadonlyMap<string, number>): number {
  let sum = 0;
  for (const t of terms) sum += weights.get(t) ?? 0;
  return sum;
}

/**
 * How a claim answers the question: the question's words it holds, each as much as it tells (termWeights,
 * twice), sub-question words, linking names (its page's title counting as its own words), and an answer of
 * the asked kind (twice). 0 for a claim that is not about the question: it holds neither one of its
 * subjects nor `ask.onTopic` of its concepts (aboutWithSubject: its page's subject helping), and it is not a
 * sentence sharing a word with the question or its links on a page about a linking name (the second step of
 * a two-step question: `link` is the place of the claim leading to the page in `ask.links.written`, -1 for any other
 * page).
 */
function relevanceOf(
  text: string,
  terms: ReadonlySet<string>,
  pageTitle: string,
  ask: Ask,
): { relevance: number; link: number } {
  const subject = termSet(pageTitle, false);
  // A sentence is about its page's subject too, which it calls "she", "it" or by a short name.
  const withSubject = new Set([...terms, ...subject]);
  const shared = overlapCount(terms, ask.queryTerms);
  const linked = overlapCount(withSubject, ask.links.terms);
  const told = weightedOverlap(terms, ask.weights);
  const link = shared + linked > 0 ? linkOfPage(pageTitle, ask.links, ask.queryTerms) : -1;
  if (link < 0 && !aboutQuestion(terms, ask) && !aboutWithSubject(terms, subject, withSubject, ask))
    return { relevance: 0, link };
  const fits = answerSpans(text, ask.asked.kind, ask.asked.terms).length > 0 ? 2 : 0;
  return { relevance: 2 * told + overlapCount(terms, ask.planTerms) + linked + fits, link };
}

/**
 * Ranks the propositions of the run into findings: only propositions about the question (see relevanceOf)
 * are findings, so sources that do not address it give none; they are scored by relevance and the
 * cluster's strongest claim, taken in turn each weighed down by its likeness to those taken (pickDiverse),
 * and the best one from the page of a linking name leads. Each finding carries every source of its cluster
 * and a confidence = mean claimStrength over the cluster's claims. `about` names every proposition about the
 * question, finding or not.
 */
export async function rankFindings(input: {
  query: string;
  plan: Plan | null;
  graph: EvidenceGraph;
  evidence: EvidenceDraft[];
  language?: string;
}): Promise<RankedFindings> {
  // Thousands of claims take tens of milliseconds to read: the work gives the event loop a turn between clusters.
  const pause = createPause();
  const { graph } = input;
  const evidence = new Map(input.evidence.map((e) => [e.claim_id, e]));
  const claims = new Map(graph.claims.map((c) => [c.id, c]));
  const queryTerms = termSet(input.query, false);
  const topic = questionTopic(input.query);
  // Each claim's terms, read once: the term weights, the links and the findings all use them.
  const termsOf = new Map(graph.claims.map((c) => [c.id, termSet(c.claim_text, false)]));
  const weights = termWeights([...termsOf.values()], queryTerms);
  const onTopic = Math.min(ON_TOPIC_CONCEPTS, topic.concepts.length);
  const asked = readQuestion(input.query, input.language ?? 'en');
  const ask: Ask = {
    query: input.query,
    queryTerms,
    topic,
    onTopic,
    planTerms: new Set((input.plan?.sub_questions ?? []).flatMap((q) => [...termSet(q, false)])),
    links: linksOf(
      graph.claims.map((c) => ({ text: c.claim_text, terms: termsOf.get(c.id)!, sourceId: c.source_id })),
      { queryTerms, topic, onTopic },
      (id) => graph.sources.get(id)?.title ?? '',
    ),
    asked,
    weights,
  };
  const rankCluster = (cluster: Cluster) => {
    const members = cluster.claimIds.map((id) => {
      const claim = claims.get(id)!;
      const e = evidence.get(id);
      const strength = e ? claimStrength(claim.confidence, e) : claim.confidence * 0.4;
      return { claim, strength };
    });
    members.sort((a, b) => b.strength - a.strength || a.claim.position - b.claim.position);
    const best = members[0]!;
    const terms = termsOf.get(best.claim.id)!;
    const { relevance, link } = relevanceOf(
      best.claim.claim_text,
      terms,
      graph.sources.get(best.claim.source_id)?.title ?? '',
      ask,
    );
    const confidence = round2(members.reduce((n, m) => n + m.strength, 0) / members.length);
    return {
      cluster,
      relevance,
      link,
      terms,
      score: relevance * (0.5 + best.strength) + cluster.groups,
      finding: { text: best.claim.claim_text, confidence, source_ids: [...cluster.sourceIds] },
      claimId: best.claim.id,
      claimTexts: members.map((m) => m.claim.claim_text),
    };
  };
  const ranked: Array<ReturnType<typeof rankCluster>> = [];
  for (const cluster of graph.clusters) {
    await pause();
    ranked.push(rankCluster(cluster));
  }
  const reading = await findAnswer(asked, answerClaimsOf(graph), [...graph.sources.values()]);
  const found = reading.answer;
  // A question after a fact of which no statement (with the statements leading to it) holds as much as an answer
  // must (MIN_COVERAGE) gets no findings: the sources do not speak of it, whatever shares a word or two with it.
  // (Holding less, a statement that does answer is rare on every tune set: 2 of 106 HotpotQA answers reported.)
  const unspoken = asksForFact(asked) && !found && Math.max(0, ...reading.held.values()) < MIN_COVERAGE;
  const candidates = ranked
    .filter((r) => r.relevance > 0 && r.finding.source_ids.length > 0 && !unspoken)
    .sort((a, b) => b.score - a.score || a.cluster.index - b.cluster.index);
  const picked = pickDiverse(candidates, (r) => r.terms, MAX_FINDINGS);
  // The answer leads: its cluster first, worded by the claim that states it, also when more findings outrank it
  // than the report lists (in place of the last of them).
  const answer = leadWithAnswer(picked, ranked, reading, graph);
  const findings = picked.map(({ cluster, finding, claimId, claimTexts }) => ({
    cluster,
    finding,
    claimId,
    claimTexts,
  }));
  return Object.assign(findings, { about: new Set(candidates.map((r) => r.cluster.index)), asked, answer });
}

/**
 * Puts the answer first in `picked` (the ranked findings, in place): its cluster, worded by the claim that
 * states it, also when more findings outrank it than the report lists; then the claims that lead to it (or
 * decide a choice), so its summary sentence's neighbours show how the sources connect; then the next claims
 * that may answer (findAnswer's candidates), before the statements that only speak of the question. Returns the
 * answer, or null when there is none.
 */
function leadWithAnswer<R extends { cluster: Cluster; finding: Finding; claimId: string }>(
  picked: R[],
  ranked: readonly R[],
  reading: AnswerReading,
  graph: EvidenceGraph,
): ReportAnswer | null {
  const clusterOf = (id: string) => graph.clusterOf.get(id);
  const found = reading.answer;
  const lead = found ? ranked.find((r) => r.cluster === clusterOf(found.claimId)) : undefined;
  const following = found
    ? [...new Set(found.via.map(clusterOf))].flatMap((c) => ranked.filter((r) => r.cluster === c && r !== lead))
    : [];
  const first =
    lead && found
      ? [{ ...lead, finding: { ...lead.finding, text: claimText(graph, found.claimId) }, claimId: found.claimId }]
      : [];
  const leading = [...first, ...following.slice(-(SUMMARY_FINDINGS - 1)).reverse()];
  const taken = new Set(leading.map((r) => r.cluster));
  const alternatives = [...new Set(reading.candidates.map(clusterOf))]
    .flatMap((c) => ranked.filter((r) => r.cluster === c && !taken.has(r.cluster)))
    .slice(0, ANSWER_ALTERNATIVES);
  for (const r of alternatives) taken.add(r.cluster);
  const rest = picked.filter((r) => !taken.has(r.cluster));
  picked.splice(0, picked.length, ...[...leading, ...alternatives, ...rest].slice(0, MAX_FINDINGS));
  return found && lead ? { span: found.span, found } : null;
}

function claimText(graph: EvidenceGraph, id: string): string {
  return graph.claims.find((c) => c.id === id)!.claim_text;
}

/**
 * Claims that may answer listed after the answer at most (see rankFindings): a few, so that the statements that
 * speak of the question keep most of the report's MAX_FINDINGS.
 */
// Swept on the tune sets (first 300 of each; answer in report, HotpotQA / 2Wiki / MuSiQue): 1: 78.5 / 63.1 / 31.1 %,
// 3: 78.5 / 67.2 / 29.5 %, 5: 77.5 / 69.2 / 29.5 %.
const ANSWER_ALTERNATIVES = 3;

/** The run's claims as findAnswer reads them, in their sources' order and their order in each source. */
function answerClaimsOf(graph: EvidenceGraph) {
  const order = new Map([...graph.sources.keys()].map((id, i) => [id, i]));
  return [...graph.claims]
    .sort((a, b) => (order.get(a.source_id) ?? 0) - (order.get(b.source_id) ?? 0) || a.position - b.position)
    .map((c) => ({ id: c.id, text: c.evidence_span || c.claim_text, sourceId: c.source_id }));
}

/**
 * The best `n` of `candidates` (in order of score, best first) each weighed down by its likeness to those
 * already taken: score × (1 − the highest term overlap, Jaccard, with one of them). Pages of one series say
 * the same sentence with another year ("The 2012–13 team represented the university…"); the first of
 * them is a finding, the rest make room for what else the sources say.
 */
function pickDiverse<T extends { score: number }>(
  candidates: readonly T[],
  termsOf: (c: T) => ReadonlySet<string>,
  n: number,
) {
  const open = candidates.map((c) => ({ c, terms: termsOf(c), likeness: 0 }));
  const worth = (o: (typeof open)[number]) => o.c.score * (1 - o.likeness);
  const taken: T[] = [];
  while (taken.length < n && open.length > 0) {
    let best = 0;
    for (let i = 1; i < open.length; i++) if (worth(open[i]!) > worth(open[best]!)) best = i;
    const [next] = open.splice(best, 1);
    taken.push(next!.c);
    for (const o of open) o.likeness = Math.max(o.likeness, jaccard(o.terms, next!.terms));
  }
  return taken;
}

/** Whether a question asks for a fact the report can state (not a statement, a why, a how or a yes or no). */
export function asksForFact(asked: AskedQuestion): boolean {
  return asked.kind !== 'open' && asked.kind !== 'yes_no';
}
