import { STOPWORDS } from '../text/language';
import { namedEntities } from '../text/names';
import { termSet } from '../text/tokens';
import type { AnswerKind } from './question';

/** A part of a sentence that can answer a question: a date, a number or a name, as written. */
export interface AnswerSpan {
  kind: 'date' | 'number' | 'name';
  text: string;
  /** Where it starts in the sentence (UTF-16 index). */
  at: number;
  /** A date's day as a sortable number (yyyymmdd, missing month or day as 0); a number's value. */
  value?: number;
}

const MONTHS: Record<string, number> = {};
// English month names and their abbreviations, then the other languages of the service.
for (const [i, names] of [
  'january jan januar janvier enero gennaio',
  'february feb februar février febrero febbraio',
  'march mar märz mars marzo',
  'april apr avril abril aprile',
  'may mai mayo maggio',
  'june jun juni juin junio giugno',
  'july jul juli juillet julio luglio',
  'august aug août agosto',
  'september sep sept septembre septiembre settembre',
  'october oct oktober octobre octubre ottobre',
  'november nov novembre noviembre',
  'december dec dezember décembre diciembre dicembre',
].entries()) {
  for (const name of names.split(' ')) MONTHS[name] = i + 1;
}
const MONTH = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join('|');
// "March 11, 1887", "11 March 1887", "11. März 1887", "March 1887", "1887" (a year from 1000 to 2099).
const DATE = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:(?:(\\d{1,2})\\.?\\s+(?:de\\s+)?(${MONTH})\\.?(?:\\s+de)?\\s+)|(?:(${MONTH})\\.?\\s+(?:(\\d{1,2})(?:st|nd|rd|th)?,?\\s+)?))?(1\\d{3}|20\\d{2})(?![\\p{L}\\p{N}])`,
  'giu',
);
const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  hundred: 100,
  thousand: 1000,
  million: 1_000_000,
  billion: 1_000_000_000,
};
const NUMBER = new RegExp(
  `(?<![\\p{L}\\p{N}.,])(\\d{1,3}(?:,\\d{3})+|\\d+(?:[.,]\\d+)?)(?:\\s*(million|billion|thousand)(?!\\p{L}))?(?![\\p{N}])|\\b(${Object.keys(
    NUMBER_WORDS,
  ).join('|')})\\b`,
  'giu',
);

// "the 18th century", "the late 19th century": a date of its own when no year is given.
const CENTURY = /(?<![\p{L}\p{N}])(?:(?:early|mid|late|end of the)[\s-]+)?(\d{1,2})(?:st|nd|rd|th)[\s-]+century\b/giu;

// "December 15", "15 December" where no year follows (the year is the text's, or not given).
const DAY = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:(${MONTH})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?|(\\d{1,2})\\.?\\s+(?:de\\s+)?(${MONTH}))(?![\\p{L}\\p{N}])`,
  'giu',
);

/** The dates of a sentence, in order: days (with or without their year), months of years, years, and centuries. */
export function dateSpans(sentence: string): AnswerSpan[] {
  const out: AnswerSpan[] = [];
  for (const m of sentence.matchAll(CENTURY)) {
    out.push({ kind: 'date', text: m[0], at: m.index, value: (Number(m[1]) - 1) * 100 * 10_000 });
  }
  for (const m of sentence.matchAll(DATE)) {
    const day = Number(m[1] ?? m[4] ?? 0);
    const month = MONTHS[(m[2] ?? m[3] ?? '').toLowerCase()] ?? 0;
    const year = Number(m[5]);
    out.push({ kind: 'date', text: m[0], at: m.index, value: year * 10_000 + month * 100 + (day <= 31 ? day : 0) });
  }
  const covered = (at: number) => out.some((d) => at >= d.at && at < d.at + d.text.length);
  for (const m of sentence.matchAll(DAY)) {
    if (covered(m.index)) continue;
    const day = Number(m[2] ?? m[3]);
    const month = MONTHS[(m[1] ?? m[4] ?? '').toLowerCase()] ?? 0;
    if (day >= 1 && day <= 31) out.push({ kind: 'date', text: m[0], at: m.index, value: month * 100 + day });
  }
  return out.sort((a, b) => a.at - b.at);
}

/** The numbers of a sentence that are not dates, in order, with their values. */
export function numberSpans(sentence: string): AnswerSpan[] {
  const dates = dateSpans(sentence);
  const inDate = (at: number) => dates.some((d) => at >= d.at && at < d.at + d.text.length);
  const out: AnswerSpan[] = [];
  for (const m of sentence.matchAll(NUMBER)) {
    if (inDate(m.index)) continue;
    const word = m[3]?.toLowerCase();
    const value = word
      ? NUMBER_WORDS[word]!
      : Number(m[1]!.replace(/,(?=\d{3}\b)/g, '').replace(',', '.')) * (m[2] ? NUMBER_WORDS[m[2].toLowerCase()]! : 1);
    if (Number.isFinite(value)) out.push({ kind: 'number', text: m[0], at: m.index, value });
  }
  return out;
}

// A currency written after a sum, with the magnitude of another language between: "19 billion dollars", "4,8
// Milliarden Euro", "USD".
const CURRENCY_AFTER =
  /^\s*(?:(?:millionen|milliarden|tausend|millions?|milliards?|millones|milioni|miliardi)\s+(?:de\s+|di\s+)?)?(?:dollars?|euros?|pounds?(?: sterling)?|yen|yuan|francs?|rupees?|pesos?|kronor|kroner|rubles?|roubles?|usd|eur|gbp|jpy|cny|chf|pfund|franken|dólares|dollari|sterline)(?!\p{L})/iu;

/**
 * The sums of money of a sentence: its numbers written with a currency, a sign before ("$13.7 billion", "€4",
 * "US$ 5 million") or a name after ("300 dollars"), the sign taken into the span's text.
 */
export function moneySpans(sentence: string): AnswerSpan[] {
  return numberSpans(sentence).flatMap((span) => {
    const sign = /\p{Sc}\s?$/u.exec(sentence.slice(Math.max(0, span.at - 2), span.at));
    if (sign) {
      const at = span.at - sign[0].length;
      return [{ ...span, text: sentence.slice(at, span.at + span.text.length), at }];
    }
    return CURRENCY_AFTER.test(sentence.slice(span.at + span.text.length)) ? [span] : [];
  });
}

/** The names of a sentence (runs of capitalised words, quoted titles), in order. */
export function nameSpans(sentence: string): AnswerSpan[] {
  const dates = dateSpans(sentence);
  // A month is written capitalised, and is a date's.
  const inDate = (at: number, end: number) => dates.some((d) => at < d.at + d.text.length && end > d.at);
  return namedEntities(sentence).flatMap((text) => {
    const at = sentence.indexOf(text);
    return at >= 0 && inDate(at, at + text.length) ? [] : [{ kind: 'name' as const, text, at: Math.max(0, at) }];
  });
}

/** Whether the question already gives a span: every word of it is the question's. */
export function givenByQuestion(span: AnswerSpan, questionTerms: ReadonlySet<string>): boolean {
  const terms = termSet(span.text);
  return terms.size === 0 || [...terms].every((t) => questionTerms.has(t));
}

/**
 * The spans of a sentence that answer a question of `kind` and that the question does not give; for a place, not
 * a name that describes the noun after it (see qualifies); for a number asked as a sum of `money`, only sums
 * written with their currency (moneySpans).
 */
export function answerSpans(
  sentence: string,
  kind: AnswerKind,
  questionTerms: ReadonlySet<string>,
  money = false,
): AnswerSpan[] {
  const spans =
    kind === 'date'
      ? dateSpans(sentence)
      : kind === 'number'
        ? money
          ? moneySpans(sentence)
          : numberSpans(sentence)
        : kind === 'person' || kind === 'place' || kind === 'name'
          ? nameSpans(sentence)
          : [];
  return spans.filter((s) => !givenByQuestion(s, questionTerms) && !(kind === 'place' && qualifies(sentence, s)));
}

/**
 * Whether a name stands before a noun it describes ("an Italian cinematographer", "the American film"): an
 * attribute, not a place, which a sentence names after a word such as "in" or "at".
 */
export function qualifies(sentence: string, span: AnswerSpan): boolean {
  const next = /^[\s-]+([\p{L}]+)/u.exec(sentence.slice(span.at + span.text.length))?.[1];
  return next !== undefined && /^\p{Ll}/u.test(next) && !STOPWORDS.has(next);
}

/**
 * `spans` of `text` nearest first to the words it shares with the question (in words between them; a word of
 * `described`, what the question says the answer is, counts as twice as near): "the German musical project
 * Enigma", "directed by Amleto Palermi", "was born in Paris". What the question asks of stands next to its
 * answer. Without a shared word, the spans' own order.
 */
export function byNearness(
  text: string,
  spans: readonly AnswerSpan[],
  terms: ReadonlySet<string>,
  described: ReadonlySet<string> = new Set(),
): AnswerSpan[] {
  if (spans.length <= 1) return [...spans];
  const anchors = [...text.matchAll(/[\p{L}\p{N}]+/gu)].flatMap((m) => {
    const term = [...termSet(m[0])][0];
    if (!term || !terms.has(term)) return [];
    return [{ at: m.index, end: m.index + m[0].length, weight: described.has(term) ? 2 : 1 }];
  });
  if (anchors.length === 0) return [...spans];
  const wordsBetween = (from: number, to: number) => text.slice(from, to).match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  // A span holding a word of what the question says the answer is ("Oakland County" for "what county") is it.
  const distance = (span: AnswerSpan) =>
    [...termSet(span.text)].some((t) => described.has(t))
      ? -1
      : Math.min(
          ...anchors
            .filter((a) => a.end <= span.at || a.at >= span.at + span.text.length)
            .map(
              (a) =>
                (a.end <= span.at ? wordsBetween(a.end, span.at) : wordsBetween(span.at + span.text.length, a.at)) /
                a.weight,
            ),
        );
  return [...spans].sort((a, b) => distance(a) - distance(b) || a.at - b.at);
}
