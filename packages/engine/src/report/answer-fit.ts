import { namedEntities } from '../text/names';
import { termSet, years } from '../text/tokens';

/** What kind of answer a question asks for: a year, a number, a name (person, place, thing), or no kind. */
export type AnswerKind = 'year' | 'number' | 'name' | 'open';

// The question words of the service's languages, by the kind of answer they ask for. A question asking
// "what/which <noun>" wants a name; "when" and "what year" a year; "how many/much" a number.
const YEAR =
  /\b(when|what year|which year|in what year|since when|wann|in welchem jahr|seit wann|quand|en quelle année|cuándo|en qué año|quando|in che anno)\b/i;
const NUMBER =
  /\b(how many|how much|how large|how long|how old|how tall|what number|wie viele|wie viel|wie groß|wie alt|combien|cuántos|cuántas|cuánto|quanti|quante|quanto)\b/i;
const NAME =
  /\b(who|whom|whose|where|which|what|wer|wen|wem|wessen|wo|welche[rsmn]?|was für|qui|où|quel(?:le)?s?|quién|quiénes|dónde|cuál(?:es)?|qué|chi|dove|quale|quali)\b/i;

/** The kind of answer `question` asks for (open for statements, yes/no questions and whys). */
export function answerKindOf(question: string): AnswerKind {
  if (YEAR.test(question)) return 'year';
  if (NUMBER.test(question)) return 'number';
  return NAME.test(question) ? 'name' : 'open';
}

const NUMBER_TOKEN = /\d[\d,.\s]*\d|\d/g;

/**
 * Whether `text` holds an answer of the asked kind that the question does not already give: a year, a
 * number, or a name none of whose words the question holds. An open question fits every text.
 */
export function fitsAnswer(text: string, kind: AnswerKind, question: string): boolean {
  if (kind === 'open') return true;
  if (kind === 'year') {
    const given = new Set(years(question));
    return years(text).some((y) => !given.has(y));
  }
  if (kind === 'number') {
    const given = new Set((question.match(NUMBER_TOKEN) ?? []).map((n) => n.replace(/\D/g, '')));
    return (text.match(NUMBER_TOKEN) ?? []).some((n) => !given.has(n.replace(/\D/g, '')));
  }
  const own = termSet(question);
  return namedEntities(text).some((name) => [...termSet(name, false)].some((t) => !own.has(t)));
}
