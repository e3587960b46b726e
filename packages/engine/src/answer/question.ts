import { languageCode } from '../text/language';
import { namedEntities, questionNames } from '../text/names';
import { termSet } from '../text/tokens';

/**
 * What kind of answer a question asks for: a date or year, a number, a person, a place, another name (a
 * title, a nationality, a thing), one of the things it names (`choice`: "which is older, A or B?"), yes or
 * no, or none (a statement, a why or a how, which a report answers with its findings).
 */
export type AnswerKind = 'date' | 'number' | 'person' | 'place' | 'name' | 'choice' | 'yes_no' | 'open';

/** How a choice between things is decided: by a date or a number they state, the least or the most. */
export interface Comparison {
  attribute: 'date' | 'number';
  pick: 'least' | 'most';
}

/** What the answer step reads from a question. */
export interface AskedQuestion {
  text: string;
  kind: AnswerKind;
  /** The things a choice is between ("A or B"), as written; empty for other kinds. */
  options: string[];
  /** How a choice is decided, when a word of the question says so ("first", "older", "more"). */
  comparison: Comparison | null;
  /** The question's stemmed content terms (numbers too: a year it gives is no answer). */
  terms: Set<string>;
  /**
   * The terms of what the question says the answer is ("What former two-weight world champion …", "Which
   * Danish eurodance group …"): a claim holding them speaks of the answer itself, as its page's subject.
   */
  described: Set<string>;
  /**
   * The event of a life the question asks after ("where did he die", "date of birth", "birthday"), with the terms
   * of the question's words for it: a claim telling that event in words of its own ("He died in …") holds them.
   */
  life: { event: LifeEvent; terms: Set<string> } | null;
  /** The terms of each name the question gives ("South Sudan", "Node.js"; questionNames), as a whole. */
  names: Array<Set<string>>;
  /**
   * Whether the question asks for a person by a family tie ("Who is the mother of …?", "Who is Arghun's uncle?"),
   * which a sentence gives as the name after the tie ("He was the son of actress Mary Martin"). English only.
   */
  family: boolean;
  /**
   * Whether the question asks for a person as the doer, the subject of its verb ("Who designed …", "Which actress
   * was in …"), rather than as whom something was done to ("Who did the actor defeat …", "… to whom?") or by a
   * family tie: a sentence speaking of its page's subject ("He designed …") then answers with that subject, not
   * with another name it holds. English only.
   */
  agent: boolean;
  /**
   * Whether a question after a number asks for a sum of money ("How much did Amazon pay for Whole Foods?", "Was
   * kostet …?"): a sentence gives it with its currency ("$13.7 billion"), and a number without one (a "106-year-old"
   * boat, "six times") does not answer it.
   */
  money: boolean;
}

/** A life's events a question may ask the date, place or cause of. */
export type LifeEvent = 'birth' | 'death';

// The question words and the nouns after them, per kind of answer. English is read closely (the nouns after
// "what" and "which" tell a person from a place); the service's other languages by their question words.
const PERSON_NOUN =
  /^(person|people|man|woman|men|women|actor|actress|singer|director|author|writer|novelist|poet|player|king|queen|president|politician|artist|musician|composer|producer|coach|architect|founder|father|mother|son|daughter|wife|husband|brother|sister|grandfather|grandmother|grandson|granddaughter|uncle|aunt|spouse|child|leader|manager|owner|creator|designer|inventor|scientist|member|band ?member|character|rapper|guitarist|drummer|comedian|host|presenter|journalist|painter|sculptor|philosopher|general|officer|emperor|prince|princess|duke|pope|bishop|chancellor|minister|governor|senator|mayor|ceo|chairman|screenwriter|lyricist|performer|cinematographer|editor|narrator)s?$/i;
const PLACE_NOUN =
  /^(city|cities|town|country|countries|state|county|counties|province|region|place|village|island|continent|location|area|district|neighbou?rhood|capital|borough|municipality|suburb|territory|nation|river|mountain|lake|street|venue|stadium|arena|airport)$/i;
const DATE_NOUN = /^(year|date|day|month|decade|century|era|season)$/i;
const NUMBER_NOUN = /^(number|amount|population|percentage|count|total|size)$/i;

const WH = /^(what|which|who|whom|whose|where|when|how)$/i;
const YES_NO_START =
  /^\s*(is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|shall|may|might|ist|sind|war|waren|hat|haben|est-ce|es|son|fue|è|sono)\b/i;

const DATE_ASKED =
  /\b(when|what year|which year|in what year|what date|which date|date of (?:birth|death)|birth ?date|what decade|which decade|what century|which century|wann|in welchem jahr|seit wann|quand|en quelle année|cuándo|en qué año|quando|in che anno)\b/i;
const NUMBER_ASKED =
  /\b(how many|how much|how large|how long|how old|how tall|how big|how far|how high|how deep|how wide|how heavy|what number|what percentage|wie viele|wie viel|wie groß|wie alt|wie lange|combien|cuántos|cuántas|cuánto|quanti|quante|quanto)\b/i;
const PLACE_ASKED = /\b(where|place of (?:birth|death)|birthplace|wo|woher|wohin|où|dónde|dove)\b/i;
const PERSON_ASKED = /\b(who|whom|wer|wen|wem|qui|quién|quiénes|chi)\b/i;
const NAME_ASKED = /\b(what|which|whose|welche[rsmn]?|was für|quel(?:le)?s?|cuál(?:es)?|qué|quale|quali)\b/i;

/**
 * The words telling a life's death or birth, in the service's languages, as whole words (\b knows only ASCII
 * letters: "murió", "né"). A question asks after the death first: "Where did the man born in Padua die?".
 * Italian "nato" is left out: read without case, it is NATO.
 */
export const LIFE_WORDS: Record<LifeEvent, RegExp> = {
  death: /(?<!\p{L})(die[ds]?|death|dead|deceased|passed away|starb|gestorben|mort|murió|morto)(?!\p{L})/iu,
  birth: /(?<!\p{L})(born|birth|birthplace|birthday|birthdate|geboren|né|née|nacido|nacida)(?!\p{L})/iu,
};

/** The life event a question asks after, if any (see AskedQuestion.life). */
function lifeAsked(question: string): AskedQuestion['life'] {
  for (const event of ['death', 'birth'] as const) {
    const said = question.match(new RegExp(LIFE_WORDS[event].source, 'giu'));
    if (said) return { event, terms: termSet(said.join(' ')) };
  }
  return null;
}

// The words that say how a choice is decided.
const DATE_LEAST =
  /\b(first|earlier|earliest|older|oldest|before|sooner|früher|zuerst|älter|premier|plus ancien|primero|más antiguo|prima|più antico)\b/i;
const DATE_MOST =
  /\b(later|latest|last|younger|youngest|more recent(?:ly)?|most recent(?:ly)?|newer|newest|später|jünger|plus récent|más reciente|più recente)\b/i;
const NUMBER_MOST =
  /\b(more|most|larger|largest|bigger|biggest|higher|highest|taller|tallest|longer|longest|greater|greatest|heavier|heaviest|wider|widest|deeper|deepest|mehr|größer|höher|länger|plus|más|mayor|più|maggiore)\b/i;
const NUMBER_LEAST =
  /\b(fewer|fewest|less|least|smaller|smallest|shorter|shortest|lower|lowest|lighter|lightest|narrower|weniger|kleiner|niedriger|kürzer|moins|menos|menor|meno|minore)\b/i;

// "…, A or B?", "…: A or B?", "Between A and B, which …?"; and "A or B, which …?".
const OPTIONS_AFTER = /(?:,|:)\s*([^,:?]+?)\s+(?:or|oder|ou|o)\s+([^?]+?)\s*[?？]?\s*$/iu;
const BETWEEN = /^\s*(?:between|zwischen|entre|tra)\s+([^,:?]+?)\s+(?:and|und|et|y|e)\s+([^,?]+?)\s*,/iu;
const OPTIONS_BEFORE =
  /^\s*([^,?]+?)\s+(?:or|oder|ou|o)\s+([^,?]+?)\s*,\s*(?:which|who|what|welche[rsmn]?|wer|quel(?:le)?|cuál|quién|quale|chi)\b/iu;
const OR = /\s(?:or|oder|ou|o)\s/giu;

/** The kind a noun after "what"/"which" names, if it names one. */
function kindOfNoun(noun: string): AnswerKind | null {
  if (PERSON_NOUN.test(noun)) return 'person';
  if (PLACE_NOUN.test(noun)) return 'place';
  if (DATE_NOUN.test(noun)) return 'date';
  if (NUMBER_NOUN.test(noun)) return 'number';
  return null;
}

/**
 * The kind an English question's first question word and the nouns after it ask for ("what city", "which
 * American actor", "in what year"), or null when it has no question word.
 */
function englishKind(question: string): AnswerKind | null {
  const tokens = question.match(/[\p{L}\p{N}'’-]+/gu) ?? [];
  // The question word opens the question ("Who …", "In which city …"); one further in is a relative pronoun
  // ("The actor who appeared … was born in what year?"), and the question's own is then its last.
  const opening = tokens.slice(0, 2).findIndex((t) => WH.test(t));
  const at = opening >= 0 ? opening : tokens.findLastIndex((t) => WH.test(t));
  if (at < 0) return null;
  const wh = tokens[at]!.toLowerCase();
  if (wh === 'when') return 'date';
  if (wh === 'where') return 'place';
  if (wh === 'who' || wh === 'whom') return 'person';
  if (wh === 'how') return NUMBER_ASKED.test(question) ? 'number' : 'open';
  // "What do engineers do about toil?", "What did the treaty change?" ask what someone does or what happened:
  // a description, no name.
  if (
    wh === 'what' &&
    /^(do|does|did)$/i.test(tokens[at + 1] ?? '') &&
    /^(do|happen|change|mean)$/i.test(tokens.slice(at + 2).find((t) => /^(do|happen|change|mean)$/i.test(t)) ?? '')
  )
    return 'open';
  // "what year", "which American film director", "what is the name of the city": a kind noun among the words
  // that describe the answer, up to their verb ("Which division did people …" asks for a division).
  for (const noun of describingWords(tokens, at)) {
    const kind = kindOfNoun(noun);
    if (kind) return kind;
  }
  return 'name';
}

/**
 * The words after the question word at `at` that describe the answer: up to a verb, past "is the name of the" and
 * past "is the" ("What is the date of birth of …" asks for a date, "What was the capital of …" for a place).
 */
function describingWords(tokens: readonly string[], at: number): string[] {
  let from = at + 1;
  const lead = tokens
    .slice(from, from + 5)
    .join(' ')
    .toLowerCase();
  const naming = /^(?:is|was|are|were) (?:(?:the )?(?:name|title)s? of (?:the |a |an )?|the )/u.exec(`${lead} `);
  if (naming) from += naming[0].trim().split(' ').length;
  const words: string[] = [];
  for (const token of tokens.slice(from)) {
    if (DESCRIPTION_END.test(token)) break;
    words.push(token);
  }
  return words;
}

/**
 * The options of a choice: the phrases a comma or "between" sets apart ("Which came first, the phonograph or the
 * telephone?"), else the names on either side of an "or" ("Was Pepper Keenan or Rob Parissi born first?", "Does
 * the band A or the band B …"). Each option must hold a word of its own.
 */
function optionsOf(question: string): string[] {
  const m = OPTIONS_AFTER.exec(question) ?? BETWEEN.exec(question) ?? OPTIONS_BEFORE.exec(question);
  if (m) {
    const options = [m[1]!, m[2]!].map((o) =>
      o
        .trim()
        .replace(/^(?:the|either)\s+/i, '')
        .replace(/["“”]/gu, '')
        .replace(/[.?!]+$/u, ''),
    );
    if (options.every((o) => termSet(o).size > 0 && o.split(/\s+/u).length <= 8)) return options;
  }
  const names = namedEntities(question).flatMap((text) => {
    const at = question.indexOf(text);
    return at >= 0 ? [{ text, at, end: at + text.length }] : [];
  });
  for (const or of question.matchAll(OR)) {
    const left = names.find((n) => n.end <= or.index && /^["”’\s]*$/u.test(question.slice(n.end, or.index)));
    const after = or.index + or[0].length;
    // A few lower-case words may stand before the second name ("or the band The Dear Hunter").
    const right = names.find(
      (n) => n.at >= after && /^(?:[\p{Ll}]+\s+){0,3}["“‘]?$/u.test(question.slice(after, n.at)),
    );
    if (left && right) return [left.text, right.text];
  }
  return [];
}

/** How a choice is decided, from the words of the question outside its options. */
function comparisonOf(question: string, options: readonly string[]): Comparison | null {
  let rest = question;
  for (const o of options) rest = rest.replace(o, ' ');
  if (DATE_LEAST.test(rest)) return { attribute: 'date', pick: 'least' };
  if (DATE_MOST.test(rest)) return { attribute: 'date', pick: 'most' };
  if (NUMBER_LEAST.test(rest)) return { attribute: 'number', pick: 'least' };
  if (NUMBER_MOST.test(rest)) return { attribute: 'number', pick: 'most' };
  return null;
}

// Where the words after "what"/"which" stop describing the answer: a verb, a preposition, a relative word.
const DESCRIPTION_END =
  /^(is|was|are|were|be|been|did|does|do|has|have|had|can|could|will|would|should|may|might|that|who|whom|which|whose|where|when|by|in|of|for|from|with|on|at|to|as|and|or|[\p{L}]+ed)$/iu;

/** The terms of the words after an English "what" or "which" up to its verb (see AskedQuestion.described). */
function describedTerms(question: string): Set<string> {
  const tokens = question.match(/[\p{L}\p{N}'’-]+/gu) ?? [];
  const at = tokens.findIndex((t) => /^(what|which)$/i.test(t));
  return at < 0 ? new Set() : termSet(describingWords(tokens, at).join(' '));
}

// The words of a family tie, in English.
const FAMILY_WORDS =
  'sons?|daughters?|child|children|father|mother|parents?|wife|husband|spouse|married|brothers?|sisters?|siblings?|' +
  'uncle|aunt|nephew|niece|cousin|grand(?:father|mother|son|daughter)|step(?:father|mother|son|daughter)';
const FAMILY_ASKED = new RegExp(`\\b(?:${FAMILY_WORDS})\\b`, 'iu');
/** A family tie as a sentence gives a name by it: "the son of", "the father of", "married to". */
export const FAMILY_TIE = new RegExp(`\\b(?:${FAMILY_WORDS})\\s+(?:of|to)\\b`, 'iu');

/** A question after whom something was done: "whom", or "who" with "do" before the subject ("Who did he defeat?"). */
const OBJECT_ASKED = /\bwhom\b|\bwho\s+(?:did|does|do)\b/iu;

/** "How much", in the service's languages: with one of MONEY_ASKED's words it asks for a sum ("how many" counts). */
const HOW_MUCH = /(?<!\p{L})(how much|wie viel|combien|cuánto|cuánta|quanto|quanta)(?!\p{L})/iu;
/** The words of a question asking what something cost, in the service's languages. */
const MONEY_ASKED =
  /(?<!\p{L})(pay|pays|paid|cost|costs|price|priced|sell|sells|sold|buy|buys|bought|worth|spend|spends|spent|earn|earns|earned|raise|raised|fee|salary|kosten|kostet|kostete|zahlen|zahlt|zahlte|bezahlt|preis|coûte|coûté|payé|prix|cuesta|costó|pagó|precio|costa|costato|pagato|prezzo)(?!\p{L})/iu;

/** What a question asks for (see AskedQuestion). */
export function readQuestion(question: string, language: string): AskedQuestion {
  const text = question.trim();
  const terms = termSet(text);
  const options = optionsOf(text);
  const names = questionNames(text, language)
    .map((name) => termSet(name))
    .filter((t) => t.size > 0);
  const base = {
    text,
    terms,
    described: describedTerms(text),
    life: lifeAsked(text),
    names,
    family: false,
    agent: false,
    money: false,
  };
  // A sentence that ends as a statement does ("The factors which caused the cooling are gone.") is a claim to check,
  // whatever question words it holds further in: it asks for no fact.
  if (isStatement(text)) return { ...base, kind: 'open', options: [], comparison: null };
  const yesNo = YES_NO_START.test(text);
  // "Who was born first, A or B?" and "Is A or B older?" choose; "Are A and B both American?" does not.
  if (options.length === 2) {
    return { ...base, kind: 'choice', options, comparison: comparisonOf(text, options) };
  }
  if (yesNo) return { ...base, kind: 'yes_no', options: [], comparison: null };
  const kind = askedKind(text, language);
  const english = (languageCode(language) ?? 'en') === 'en';
  const family = english && kind === 'person' && FAMILY_ASKED.test(text);
  const agent = english && kind === 'person' && !family && !OBJECT_ASKED.test(text);
  const money = kind === 'number' && HOW_MUCH.test(text) && MONEY_ASKED.test(text);
  return { ...base, kind, options: [], comparison: null, family, agent, money };
}

// A full stop or an exclamation mark at the end (before closing quotes or brackets).
const STATEMENT_END = /[.!]["'”’»)\]]*$/u;

/**
 * Whether a text is a statement rather than a question: it ends as a sentence does, holds no question mark and
 * does not open with a question word or a yes/no question's verb ("Which of his brothers plays for … club." is a
 * question typed with a full stop; "The sun has gone into lockdown." is a claim to check).
 */
function isStatement(text: string): boolean {
  const trimmed = text.trim();
  const first = trimmed.match(/[\p{L}\p{N}'’-]+/u)?.[0] ?? '';
  return !/[?？¿]/u.test(trimmed) && STATEMENT_END.test(trimmed) && !WH.test(first) && !YES_NO_START.test(trimmed);
}

function askedKind(text: string, language: string): AnswerKind {
  // English "when" is also a conjunction ("the city he lived in when …"): its first question word decides.
  if ((languageCode(language) ?? 'en') === 'en') return englishKind(text) ?? 'open';
  if (DATE_ASKED.test(text)) return 'date';
  if (NUMBER_ASKED.test(text)) return 'number';
  if (PLACE_ASKED.test(text)) return 'place';
  if (PERSON_ASKED.test(text)) return 'person';
  if (NAME_ASKED.test(text)) return 'name';
  return 'open';
}
