import { createPause, finishInSlices, type Pause, type SlicedWork } from '@research/core';
import { nameKey, subjectKey } from '../text/names';
import { termWeights, weightOf } from '../text/term-weights';
import { termSet } from '../text/tokens';
import { FAMILY_TIE, LIFE_WORDS, type AskedQuestion } from './question';
import { answerSpans, byNearness, dateSpans, numberSpans, qualifies, type AnswerSpan } from './spans';

/** A claim the answer may be read from: a sentence of a source, quoted as it stands. */
export interface AnswerClaim {
  id: string;
  text: string;
  sourceId: string;
}

/** A source of the run; the order of the sources given is the order they are preferred in on a tie. */
export interface AnswerSource {
  id: string;
  title: string | null;
}

/** The claim that answers the question, and the claims that lead to it. */
export interface FoundAnswer {
  claimId: string;
  /** The part of the claim that answers (a date, a number, a name), when the question asks for one. */
  span: string | null;
  /** The claims whose names lead to the answer's page, first hop first (empty for an answer on its own). */
  via: string[];
  /** The share of the question's weight the claim and those leading to it hold together (0 to 1). */
  coverage: number;
}

/**
 * Pages a chain of claims may pass through: the question's page, the page a name of it leads to, and for a
 * question of three or four steps (a composer's spouse's birthplace) one or two more.
 */
// Swept with `npm run eval -- multihop --replay` on the saved runs (answer in the first sentence, HotpotQA / 2Wiki /
// MuSiQue; tune, then check): 2: 145 / 132 / 14 of 284 / 198 / 61, check 199 / 74 / 7 of 374 / 108 / 39; 3: 133 / 133
// / 13, check 198 / 78 / 8; 4: 131 / 132 / 13, check 194 / 79 / 8. Two pages gain on tune what they lose on check.
export const MAX_HOPS = 3;

/**
 * The least share of the question's weight an answer's chain must hold: below it, no claim speaks of what
 * was asked, and the report says so rather than open with a sentence about something else.
 */
// Swept on the tune sets (first 300 of each; answer in report, HotpotQA / 2Wiki / MuSiQue) and on the local
// evaluation's 30 unanswered questions (reports with no findings): 0.1: 80.6 / 67.2 / 34.4 %, 0/30; 0.2: 80.3 /
// 67.2 / 34.4 %, 0/30; 0.3: 78.5 / 67.2 / 29.5 %, 2/30; 0.4: 74.7 / 65.1 / 22.9 %. Below 0.3 every unanswerable
// question gets an answer; above it answers are lost.
export const MIN_COVERAGE = 0.3;

interface Node {
  claim: AnswerClaim;
  order: number;
  page: number;
  /** The question's terms the claim holds, its page's title counting as its own words (its "she", "it"). */
  own: Set<string>;
  /** The other pages of the run whose subject the claim writes out, or its names and the question's words make. */
  links: number[];
  spans: AnswerSpan[];
  /** Its page's subject (the title without what parentheses add), when the question does not give it. */
  subject: string | null;
  /** Whether the claim writes its page's subject out, as the title does or in full (see writesOut), not "he" or "it". */
  namesSubject: boolean;
}

interface Chain {
  covered: Set<string>;
  weight: number;
  nodes: number[];
}

/** The claims as nodes of the chains: their question terms, the pages their names lead to, their answer spans. */
function* nodesOf(
  asked: AskedQuestion,
  claims: readonly AnswerClaim[],
  sources: readonly AnswerSource[],
): SlicedWork<{ nodes: Node[]; weights: Map<string, number> }> {
  const pageIndex = new Map(sources.map((s, i) => [s.id, i]));
  const titleTerms = sources.map((s) => termSet(s.title ?? ''));
  const subjects = sources.map((s) => subjectKey(s.title ?? ''));
  const subjectWords = subjects.map((key) => [...termSet(key)]);
  const seen: Array<Set<string>> = [];
  const nodes: Node[] = [];
  for (const [order, claim] of claims.entries()) {
    yield;
    const page = pageIndex.get(claim.sourceId);
    if (page === undefined) continue;
    const terms = termSet(claim.text);
    const withTitle = new Set([...terms, ...titleTerms[page]!]);
    seen.push(withTitle);
    const own = new Set([...asked.terms].filter((t) => withTitle.has(t)));
    // A claim telling the life event asked after holds the question's words for it ("He died in Los Angeles" the
    // "place of death"); a choice weighs lives its own way (see chooseOption).
    if (asked.life && asked.kind !== 'choice' && tellsLife(claim.text, asked))
      for (const t of asked.life.terms) own.add(t);
    // A claim leads to every other page whose subject it writes out ("… in the 1970 Asian Games" to the page
    // "1970 Asian Games"), and to a page whose subject is its names' words completed by the question's ("born in
    // Fredericton" to "Diocese of Fredericton", for "the Diocese of the birthplace of …").
    const written = ` ${nameKey(claim.text)} `;
    const spansNamed = answerSpans(claim.text, 'name', new Set());
    const names = new Set(spansNamed.map((n) => subjectKey(n.text)));
    const nameWords = new Set(spansNamed.flatMap((n) => [...termSet(n.text)]).filter((t) => !asked.terms.has(t)));
    const completed = (words: readonly string[]) =>
      words.length > 1 &&
      words.some((t) => nameWords.has(t)) &&
      words.every((t) => nameWords.has(t) || asked.terms.has(t));
    const links = subjects.flatMap((key, p) =>
      p !== page &&
      key &&
      (names.has(key) || (key.includes(' ') && written.includes(` ${key} `)) || completed(subjectWords[p]!))
        ? [p]
        : [],
    );
    const bare = (sources[page]!.title ?? '').replace(/\s*\([^)]*\)\s*/gu, ' ').trim();
    // A claim's own page's subject, in full or by a short name ("the Lightning" on "Tampa Bay Lightning"), is no span
    // of it: it is the answer only as the subject, written in full (see pickAnswer).
    const spans =
      asked.kind === 'choice'
        ? []
        : answerSpans(claim.text, asked.kind, asked.terms, asked.money).filter(
            (s) => !callsSubject(subjectKey(s.text), subjects[page]!),
          );
    const subjectTerms = termSet(bare);
    const subject =
      isName(bare) && subjectTerms.size > 0 && [...subjectTerms].some((t) => !asked.terms.has(t)) ? bare : null;
    const namesSubject =
      subject !== null &&
      (written.includes(` ${nameKey(subject)} `) || spansNamed.some((span) => writesOut(span.text, subject)));
    nodes.push({ claim, order, page, own, links, spans, subject, namesSubject });
  }
  return { nodes, weights: termWeights(asked.terms, seen) };
}

/**
 * The best chain of claims ending at each claim: the claim alone, or a chain ending at a claim whose names
 * lead to this claim's page, with the question's terms the whole chain holds. Of two chains holding as much,
 * the longer: a sentence naming a page the run read leads to that page, where what the question asks about
 * the name is told. A chain that holds the whole question is not extended.
 */
function* chainsOf(nodes: readonly Node[], weights: ReadonlyMap<string, number>, total: number): SlicedWork<Chain[]> {
  let chains: Chain[] = nodes.map((n, i) => ({ covered: n.own, weight: weightOf(n.own, weights), nodes: [i] }));
  const onPage = new Map<number, number[]>();
  nodes.forEach((n, i) => onPage.set(n.page, [...(onPage.get(n.page) ?? []), i]));
  for (let hop = 1; hop < MAX_HOPS; hop++) {
    const next = [...chains];
    for (const [b, from] of chains.entries()) {
      yield;
      // A chain that holds the whole question ends: its claim says all that was asked; one that holds none of it
      // leads nowhere the question goes.
      if (from.nodes.length !== hop || from.weight >= total - 1e-9 || from.weight <= 0) continue;
      const pagesOnChain = new Set(from.nodes.map((i) => nodes[i]!.page));
      const reached = nodes[b]!.links.filter((page) => !pagesOnChain.has(page)).flatMap(
        (page) => onPage.get(page) ?? [],
      );
      for (const c of reached) extendTo(next, c, from, { nodes, weights });
    }
    chains = next;
  }
  return chains;
}

/** Puts the chain `from` extended by claim `c` (of `nodes`) in `chains[c]` when it holds more, or as much and is longer. */
function extendTo(
  chains: Chain[],
  c: number,
  from: Chain,
  { nodes, weights }: Pick<ChainReading, 'nodes' | 'weights'>,
) {
  const covered = new Set([...from.covered, ...nodes[c]!.own]);
  const weight = weightOf(covered, weights);
  const best = chains[c]!;
  if (weight > best.weight + 1e-9 || (weight > best.weight - 1e-9 && from.nodes.length + 1 > best.nodes.length))
    chains[c] = { covered, weight, nodes: [...from.nodes, c] };
}

/**
 * The claim that answers the question, read from the claims of the run without a model: of the claims that
 * hold a span of the kind asked that the question does not give (a date for "when", a number for "how many", a sum
 * with its currency for "how much … pay", a name for "who", "where" and "which"), the one whose chain (see chainsOf)
 * passes a page naming what the question names (namingPages), then holds most of the question's weight (termWeights),
 * then tells what is asked in the form a sentence gives it (tellsAsked: a family tie, a life's date or place), then
 * the longer chain, then the claim holding such a span rather than only its page's subject, then the claim holding
 * more of the question itself, then the earlier source and claim. A choice ("which came first, A or B?") is decided
 * between the claims about each option (see chooseOption). No answer when nothing qualifies, the best chain holds less than
 * MIN_COVERAGE of the question, or when the question names things and the best chain passes no page naming one of
 * them (namingPages): its words are then held of something else (for "Where did the director of film Harbour
 * Lights study?", a director of another film who studied somewhere), and a run whose pages do not name what was
 * asked about has not read the answer. The report then says that the sources do not state it, and lists the
 * closest claims (the candidates). Measured with `npm run eval -- unanswerable` (the sets' questions in their
 * worlds without the gold pages): on the check parts, reports opening with "not found" went from 30.4 to 45.0 %
 * (HotpotQA), 21.7 to 80.4 % (2Wiki), 40.0 to 76.0 % (MuSiQue), while the answerable check parts lost one first
 * sentence of 521 (MuSiQue). Beside it, the share of the question each claim's chain holds.
 */
export function findAnswer(
  asked: AskedQuestion,
  claims: readonly AnswerClaim[],
  sources: readonly AnswerSource[],
  pause: Pause = createPause(),
): Promise<AnswerReading> {
  return finishInSlices(answerWork(asked, claims, sources), pause);
}

/** What findAnswer read: the answer, and the share of the question each claim's chain holds (by claim id). */
export interface AnswerReading {
  answer: FoundAnswer | null;
  held: Map<string, number>;
  /** The claims that may answer, best first (the answer's own first, when it was not its page's subject). */
  candidates: string[];
}

/** findAnswer as sliced work (it yields between claims, so a run of thousands never holds the event loop). */
export function* answerWork(
  asked: AskedQuestion,
  claims: readonly AnswerClaim[],
  sources: readonly AnswerSource[],
): SlicedWork<AnswerReading> {
  const none = { answer: null, held: new Map<string, number>(), candidates: [] };
  if (asked.kind === 'open' || asked.kind === 'yes_no' || claims.length === 0) return none;
  const { nodes, weights } = yield* nodesOf(asked, claims, sources);
  const total = weightOf(asked.terms, weights);
  if (total <= 0) return none;
  if (asked.kind === 'choice') {
    const held = new Map(nodes.map((n) => [n.claim.id, weightOf(n.own, weights) / total]));
    return { answer: chooseOption(asked, nodes, weights, sources), held, candidates: [] };
  }
  const chains = yield* chainsOf(nodes, weights, total);
  const held = new Map(nodes.map((n, i) => [n.claim.id, chains[i]!.weight / total]));
  const reading = { nodes, chains, weights, total };
  const { candidates, anchored } = candidatesOf(asked, reading);
  const best = candidates[0];
  return {
    answer: best !== undefined && anchored[best] ? pickAnswer(asked, reading, best) : null,
    held,
    candidates: candidates.map((i) => nodes[i]!.claim.id),
  };
}

/** The claims as chains read them: nodes, the best chain ending at each, the question's term weights and total. */
interface ChainReading {
  nodes: readonly Node[];
  chains: readonly Chain[];
  weights: ReadonlyMap<string, number>;
  total: number;
}

/**
 * The claims that may answer, best first (see findAnswer): those holding a span of the kind asked (or, for a
 * name, a page subject) whose chain holds MIN_COVERAGE of the question: those whose chain passes a page naming
 * what the question names first (namingPages), then by their chain's weight, then the claim telling what is
 * asked in the form a sentence gives it (tellsAsked), then the longer chain, then the claim holding a span, then
 * the claim holding more of the question itself, then the earlier source and claim. Beside them, whether each
 * claim's chain passes such a page (`anchored`, by node).
 */
function candidatesOf(
  asked: AskedQuestion,
  { nodes, chains, weights, total }: ChainReading,
): { candidates: number[]; anchored: boolean[] } {
  const named = NAMED_KINDS.has(asked.kind);
  const own = nodes.map((n) => weightOf(n.own, weights));
  const naming = namingPages(asked, nodes);
  const anchored = chains.map((c) => c.nodes.some((i) => naming.has(nodes[i]!.page)));
  const eligible = nodes
    .map((_, i) => i)
    .filter(
      (i) => (nodes[i]!.spans.length > 0 || (named && nodes[i]!.subject)) && chains[i]!.weight / total >= MIN_COVERAGE,
    );
  // Read for the claims that may answer only: for a place, it ranks each claim's spans.
  const told = new Map(eligible.map((i) => [i, tellsAsked(nodes[i]!, asked)]));
  const candidates = eligible.sort((i, j) => {
    if (anchored[i] !== anchored[j]) return anchored[i] ? -1 : 1;
    const [a, b] = [chains[i]!, chains[j]!];
    if (Math.abs(a.weight - b.weight) > 1e-9) return b.weight - a.weight;
    if (told.get(i) !== told.get(j)) return told.get(i) ? -1 : 1;
    if (a.nodes.length !== b.nodes.length) return b.nodes.length - a.nodes.length;
    // A claim stating a span of the kind asked ("Born in Salsomaggiore Terme, …") before one that may answer only
    // by its page's subject ("Camillo Bazzoni (born 1934) is an Italian film director").
    const [si, sj] = [nodes[i]!.spans.length > 0 ? 1 : 0, nodes[j]!.spans.length > 0 ? 1 : 0];
    if (si !== sj) return sj - si;
    if (Math.abs(own[i]! - own[j]!) > 1e-9) return own[j]! - own[i]!;
    return nodes[i]!.page - nodes[j]!.page || nodes[i]!.order - nodes[j]!.order;
  });
  return { candidates, anchored };
}

/**
 * The pages that write out a name the question gives, whole, in one statement ("South Sudan", not "Sudan"; a
 * statement holds its page's title as its own words): a question that names things asks about them, and a chain
 * through one of these pages goes before one through none, which holds the question's other words about something
 * else ("What is the capital of South Sudan?": "Osama bin Laden lived in Khartoum, the capital, …" on a page about
 * Sudan). A name's words spread over a page's statements ("the south of the country" in one, "Sudan" in another)
 * are not the name. Without names in the question, every page.
 */
// Measured against a page holding the name's words in any of its statements (`npm run eval -- multihop --replay`,
// `unanswerable --replay`, `local --replay`): the answerable tune and check parts unchanged (HotpotQA / 2Wiki /
// MuSiQue first sentences 141 / 133 / 12 and 202 / 78 / 7); reports opening with "not found" where no page answers
// 137 → 138 of 314 (HotpotQA tune), 77 → 78 of 171 (check), the rest unchanged; local unanswered 6 → 9 of 30, the
// answered unchanged.
function namingPages(asked: AskedQuestion, nodes: readonly Node[]): Set<number> {
  const named = (n: Node) =>
    asked.names.length === 0 || asked.names.some((name) => [...name].every((t) => n.own.has(t)));
  return new Set(nodes.filter(named).map((n) => n.page));
}

/**
 * Whether a claim speaks of its page's subject, a person's: by "he", "she", "his" or "her" (English, as
 * AskedQuestion's `agent` is), or by opening with the subject's name, in full or short ("Khrushchev was …" on
 * "Nikita Khrushchev").
 */
function speaksOfSubject(node: Node): boolean {
  const text = node.claim.text;
  if (/\b(?:he|she|his|her)\b/iu.test(text)) return true;
  const words = node.subject?.split(/\s+/u) ?? [];
  return words.some((_, i) => {
    const name = words.slice(i).join(' ');
    return text.startsWith(name) && !/\p{L}/u.test(text.charAt(name.length));
  });
}

/** The answer among the claims' chains (see findAnswer). */
function pickAnswer(
  asked: AskedQuestion,
  { nodes, chains, total }: ChainReading,
  best: number | undefined,
): FoundAnswer | null {
  if (best === undefined) return null;
  const chain = chains[best]!;
  const node = nodes[best]!;
  const before = chain.nodes.slice(0, -1);
  // The answer is the claim's page's subject when the claim tells what the question says of the answer ("What
  // former two-weight world champion …": "He is a former two-weight world champion …"), or holds no other name.
  const previous = before.length > 0 ? chains[before[before.length - 1]!]!.covered : new Set<string>();
  const describes = [...node.own].some((t) => asked.described.has(t) && !previous.has(t));
  // …unless a span of the claim is itself what the question says ("What county …": "Oakland County").
  const named = node.spans.some((span) => [...termSet(span.text)].some((t) => asked.described.has(t)));
  const bySubject =
    NAMED_KINDS.has(asked.kind) &&
    node.subject !== null &&
    ((asked.agent && speaksOfSubject(node)) || (!named && (describes || node.spans.length === 0)));
  if (!bySubject) {
    return {
      claimId: node.claim.id,
      span: spansOf(node, asked)[0]?.text ?? null,
      via: before.map((i) => nodes[i]!.claim.id),
      coverage: chain.weight / total,
    };
  }
  // Stated by a claim that writes the subject out: this one, the claim before it that named its page, or the
  // first of its page's claims that does.
  const stating = node.namesSubject
    ? best
    : ([...before].reverse().find((i) => nodes[i]!.links.includes(node.page)) ??
      nodes.findIndex((n) => n.page === node.page && n.namesSubject));
  const statement = stating >= 0 ? stating : best;
  return {
    claimId: nodes[statement]!.claim.id,
    span: node.subject,
    via: [...before, ...(statement === best ? [] : [best])]
      .filter((i) => i !== statement)
      .map((i) => nodes[i]!.claim.id),
    coverage: chain.weight / total,
  };
}

/**
 * Whether a name a claim writes is a page's subject written out in full: the subject's words in order, with
 * given names or a nickname between them ("Edwin George Tobias Marlowe", "Robert "Rob" Hale" for the pages
 * "Edwin Marlowe", "Rob Hale"), ending with the same word.
 */
function writesOut(name: string, subject: string): boolean {
  const written = nameKey(name).split(' ');
  const wanted = nameKey(subject).split(' ');
  if (wanted.length < 2 || written[written.length - 1] !== wanted[wanted.length - 1]) return false;
  let at = 0;
  for (const word of written) if (word === wanted[at]) at++;
  return at === wanted.length;
}

/**
 * Whether a name (a subjectKey) calls a page's subject (a subjectKey): the subject itself, or its last words, as a
 * page calls its subject after naming it once ("Lightning" for "Tampa Bay Lightning", "Dupree" for "Jesse James
 * Dupree").
 */
function callsSubject(name: string, subject: string): boolean {
  if (name === subject) return true;
  const short = name.split(' ');
  const full = subject.split(' ');
  return name !== '' && short.length < full.length && short.every((w, i) => w === full[full.length - short.length + i]);
}

/** Words a page title may hold to name its subject (a headline or a sentence says more). */
// Swept as MAX_HOPS (first sentence): 4: 134 / 133 / 13, check 197 / 78 / 8; 6: 133 / 133 / 13, check 198 / 78 / 8;
// 8: the same as 6.
const MAX_NAME_WORDS = 6;

/**
 * Whether a page title names a thing ("Tony Burke", "Kiss and Tell", "2013–14 Premier League") rather than
 * saying something (a news headline: "Minecraft exploit makes it easy to crash servers"): a few words, each
 * longer one capitalised.
 */
function isName(title: string): boolean {
  const words = title.match(/[\p{L}\p{N}][\p{L}\p{N}'’.-]*/gu) ?? [];
  return words.length > 0 && words.length <= MAX_NAME_WORDS && words.every((w) => w.length < 4 || !/^\p{Ll}/u.test(w));
}

/** Kinds whose answer is a name, which may be the subject of the page that tells it. */
const NAMED_KINDS = new Set(['person', 'place', 'name']);

/** Whether a claim is about an option: its page is the option's, or it holds every word of the option. */
function aboutOption(node: Node, option: Set<string>, optionKey: string, titleKeyOf: (page: number) => string) {
  if (titleKeyOf(node.page) === optionKey) return true;
  const terms = termSet(node.claim.text);
  return [...option].every((t) => terms.has(t));
}

/**
 * A choice between the question's options: each option's claims (on its page, or naming it whole), and the
 * claims of the pages those claims name (the film's director, for "the director who died first"). With a
 * comparison ("first", "more"), each option's best claim giving a date (or number), by the question's weight
 * it and the claim that led to it hold beside the options' own words, and the option whose claim gives the
 * least or most; without one, the option whose best claim holds more of the question. The answer is stated
 * by the option's claim (the one leading to the deciding claim, which is cited beside it).
 */
function chooseOption(
  asked: AskedQuestion,
  nodes: readonly Node[],
  weights: ReadonlyMap<string, number>,
  sources: readonly AnswerSource[],
): FoundAnswer | null {
  const titleKeys = sources.map((s) => subjectKey(s.title ?? ''));
  const titleKeyOf = (page: number) => titleKeys[page] ?? '';
  const optionTerms = asked.options.map((o) => termSet(o));
  const shared = new Set(optionTerms.flatMap((o) => [...o]));
  const rest = new Map([...weights].filter(([t]) => !shared.has(t)));
  const restTotal = weightOf(new Set(rest.keys()), rest);
  const onPage = new Map<number, Node[]>();
  for (const n of nodes) onPage.set(n.page, [...(onPage.get(n.page) ?? []), n]);
  // Each option's claims and the claims they lead to, with the value each gives, best first.
  const ranked = asked.options.map((option, o) => {
    const key = subjectKey(option);
    const about = nodes.filter((n) => aboutOption(n, optionTerms[o]!, key, titleKeyOf));
    const reached = [
      ...about.map((n) => ({ n, from: n, covered: n.own })),
      ...about.flatMap((from) =>
        from.links.flatMap((page) =>
          (onPage.get(page) ?? []).map((n) => ({ n, from, covered: new Set([...from.own, ...n.own]) })),
        ),
      ),
    ];
    return reached
      .map((r) => ({ ...r, value: valueOf(r.n.claim.text, asked), weight: weightOf(r.covered, rest), key }))
      .filter((r) => !asked.comparison || r.value !== null)
      .sort((a, b) => b.weight - a.weight || a.n.page - b.n.page || a.n.order - b.n.order);
  });
  const life = (n: Node) => (LIFE_STATED.test(n.claim.text) ? 1 : 0);
  // Births and deaths are compared by the dates of lives ("(born 5 December 1931)", "(1907 – 1993)"), not by the
  // year of a film the option's page gives, when each option has such a claim; otherwise by any date it gives. A
  // life is taken from the option's own page's claims (not one that merely holds its words) first.
  const home = (r: (typeof ranked)[number][number]) => (titleKeyOf(r.from.page) === r.key ? 1 : 0);
  const byLives =
    asked.comparison?.attribute === 'date' && LIFE_ASKED.test(asked.text)
      ? ranked.map((list) => [...list].sort((a, b) => home(b) - home(a) || life(b.n) - life(a.n))[0] ?? null)
      : [];
  const picks =
    byLives.length > 0 && byLives.every((p) => p && life(p.n)) ? byLives : ranked.map((list) => list[0] ?? null);
  const chosen = decide(asked, picks[0] ?? null, picks[1] ?? null);
  if (!chosen) return null;
  const option = asked.options[picks.indexOf(chosen)]!;
  return {
    claimId: chosen.from.claim.id,
    span: option,
    via: chosen.n === chosen.from ? [] : [chosen.n.claim.id],
    coverage: restTotal > 0 ? chosen.weight / restTotal : 1,
  };
}

/**
 * Of two options' picks, the one whose value is the least or most the comparison asks for, or without a comparison
 * the one holding more of the question; none on a tie or when one has nothing.
 */
function decide<P extends { value: number | null; weight: number }>(asked: AskedQuestion, a: P | null, b: P | null) {
  if (!a || !b) return null;
  if (asked.comparison) {
    if (a.value === null || b.value === null || a.value === b.value) return null;
    const least = a.value < b.value ? a : b;
    return asked.comparison.pick === 'least' ? least : least === a ? b : a;
  }
  return Math.abs(a.weight - b.weight) > 1e-9 ? (a.weight > b.weight ? a : b) : null;
}

// A life's span written "(1887 – 1980)" or "(March 11, 1887 – December 31, 1980)": the dates of a birth and a death.
const LIFE_SPAN = /\([^()]*\d{3,4}[^()]*[–—-][^()]*\d{3,4}[^()]*\)/u;
/** Whether a claim tells the life event the question asks after: in words, or for a date by a life's span. */
function tellsLife(text: string, asked: AskedQuestion): boolean {
  if (!asked.life) return false;
  return LIFE_WORDS[asked.life.event].test(text) || (asked.kind === 'date' && LIFE_SPAN.test(text));
}

// A place as a sentence introduces it: "in Rome", "at Beverly Hills", "near Trier", "from Camden" (and German "in",
// "bei", French "à", "en", Spanish "en", Italian "in").
const BEFORE_PLACE = /(?:^|[\s,(])(?:in|at|near|from|bei|à|en)\s+(?:the\s+)?$/iu;

/**
 * Whether a claim tells what the question asks in the form a sentence gives it, where the question's own words may
 * not be: a person by a family tie, as the name after the tie ("He was the son of actress Mary Martin" for "Who is
 * the mother of …?"); the date of the life event asked after, told in words or by a life's span "(1919 – 1994)";
 * its place, told in words ("born", "died") with a place the sentence introduces as one ("He died in Beverly
 * Hills"). Of two claims ending chains that hold as much of the question, this one says what was asked: a chain of
 * a film's page and its director's holds as much ending at the film's year as at the director's death.
 */
function tellsAsked(node: Node, asked: AskedQuestion): boolean {
  if (asked.family) return kinSpans(node).length > 0;
  if (!tellsLife(node.claim.text, asked)) return false;
  if (asked.kind === 'date') return node.spans.length > 0;
  if (asked.kind !== 'place') return false;
  const span = spansOf(node, asked)[0];
  return span !== undefined && BEFORE_PLACE.test(node.claim.text.slice(0, span.at));
}

/**
 * The spans a claim names by a family tie, in their order after it ("the son of King Edward the Elder and his first
 * wife, Ecgwynn"), but a word saying what someone is ("married to American stage and screenwriter Tom Cole").
 */
function kinSpans(node: Node): AnswerSpan[] {
  const text = node.claim.text;
  const tie = FAMILY_TIE.exec(text);
  if (!tie) return [];
  return node.spans
    .filter((span) => span.at > tie.index && (/\s/u.test(span.text) || !qualifies(text, span)))
    .sort((a, b) => a.at - b.at);
}

/**
 * A claim's spans (not a choice's: see chooseOption), the likeliest answer first: nearest the question's words
 * (byNearness), its words for a life's event counting as the question's ("died" for "death"); and for the date of a
 * birth or a death, the date a life's span "(1887 – 1980)" gives for it (before its dash for a birth, after it for
 * a death) before the rest; for a person asked by a family tie, the names after the tie (kinSpans) first.
 */
function spansOf(node: Node, asked: AskedQuestion): AnswerSpan[] {
  const text = node.claim.text;
  const told = asked.life ? LIFE_WORDS[asked.life.event].exec(text) : null;
  const anchors = told ? new Set([...asked.terms, ...termSet(told[0])]) : asked.terms;
  const near = byNearness(text, node.spans, anchors, asked.described);
  if (asked.family) {
    const kin = kinSpans(node);
    return [...kin, ...near.filter((span) => !kin.includes(span))];
  }
  const life = asked.life && asked.kind === 'date' ? LIFE_SPAN.exec(text) : null;
  if (!life || !asked.life) return near;
  const dash = life.index + /[–—-](?=[^–—-]*\d{3,4}[^–—-]*\)$)/u.exec(life[0])!.index;
  const birth = asked.life.event === 'birth';
  const tells = (span: AnswerSpan) =>
    span.at > life.index && span.at < life.index + life[0].length && (birth ? span.at < dash : span.at > dash);
  return [...near.filter(tells), ...near.filter((span) => !tells(span))];
}

// What a comparison of lives asks: who was born or died first, who is older.
const LIFE_ASKED = /\b(born|birth|birthday|die[ds]?|death|older|oldest|younger|youngest|lived)\b/i;

// A claim stating a life's dates: "(born 5 December 1931)", "(1907 – 1993)", "born in 1950", "died in 1966".
const LIFE_STATED = new RegExp(`\\b(born|died|death|birth)\\b|${LIFE_SPAN.source}`, 'iu');

/** The date (or number) a claim gives for a comparison: the first, or for a question about death the second. */
function valueOf(text: string, asked: AskedQuestion): number | null {
  if (!asked.comparison) return 0;
  if (asked.comparison.attribute === 'number') {
    const numbers = numberSpans(text).filter((s) => ![...termSet(s.text)].every((t) => asked.terms.has(t)));
    return numbers[0]?.value ?? null;
  }
  const dates = dateSpans(text);
  if (dates.length === 0) return null;
  return (asked.life?.event === 'death' && dates.length > 1 ? dates[1] : dates[0])!.value ?? null;
}
