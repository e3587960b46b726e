// Abbreviations whose full stop ends no sentence: Unicode CLDR's sentence-break suppressions (npm package
// cldr-segments-full, Unicode-3.0), the lists ICU itself applies with the locale key "ss=standard". Chosen
// over a sentence-splitting library because it is the maintained list for all of the service's languages
// with no NLP dependency (200 KB of JSON), and the splitter keeps ICU's boundaries and offsets: sbd,
// sentence-splitter, compromise and wink-nlp split English only; sentencex (Wikimedia) covers the
// languages but is a native addon whose offsets count code points and that cannot be paused mid-text; and
// V8's Intl.Segmenter ignores "ss=standard" (it segments "en-u-ss-standard" exactly as "en").
import de from 'cldr-segments-full/segments/de/suppressions.json';
import en from 'cldr-segments-full/segments/en/suppressions.json';
import es from 'cldr-segments-full/segments/es/suppressions.json';
import fr from 'cldr-segments-full/segments/fr/suppressions.json';
import it from 'cldr-segments-full/segments/it/suppressions.json';
import { languageCode, type LanguageCode } from './language';

interface Suppressions {
  segments: { segmentations: { SentenceBreak: { standard: Array<{ suppression: string }> } } };
}

const listed = (data: Suppressions): string[] =>
  data.segments.segmentations.SentenceBreak.standard.map((s) => s.suppression);

const OWN: Readonly<Record<LanguageCode, ReadonlySet<string>>> = {
  de: new Set(listed(de)),
  en: new Set(listed(en)),
  es: new Set(listed(es)),
  fr: new Set(listed(fr)),
  it: new Set(listed(it)),
};

/**
 * The capitalised suppressions of every language, taken in a text of any of them: titles, names and
 * company forms travel between languages (an English page has "Dr.", "St.", "Jr." and "Inc.", which CLDR
 * lists for German, Spanish or French but not for English). A lower-case one ("ago.", "on.") is a
 * language's own word and holds in that language only.
 */
const SHARED: ReadonlySet<string> = new Set(
  Object.values(OWN).flatMap((list) => [...list].filter((a) => /^\p{Lu}/u.test(a))),
);

/** Words in the longest suppression ("v. u. Z."). */
const MAX_WORDS = Math.max(...Object.values(OWN).flatMap((list) => [...list].map((a) => a.split(' ').length)));
/**
 * Characters read before a full stop: the longest suppression, an opening bracket or quote before it, the
 * space before that, and the closing brackets or quotes after it that are looked through.
 */
const TAIL = Math.max(...Object.values(OWN).flatMap((list) => [...list].map((a) => a.length))) + 4;

/** One or more letters each followed by a full stop: an initial ("J.", "H. W.") or an initialism ("U.S.", "p.m."). */
const INITIALS = /^(?:\p{L}\.)+$/u;
const OPENING = /^[\p{Ps}\p{Pi}"'¿¡]+/u;
const CLOSING = /[\p{Pe}\p{Pf}"']/u;
const BLANK = /\s/u;

// Character tests with an ASCII fast path: they run a few times at every break the segmenter finds.
function isBlank(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c === 32 || (c >= 9 && c <= 13) || (c > 127 && BLANK.test(text[i]!));
}
function isClosing(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c === 34 || c === 39 || c === 41 || c === 93 || c === 125 || (c > 127 && CLOSING.test(text[i]!));
}
function isAsciiLetter(text: string, i: number): boolean {
  const c = text.charCodeAt(i) | 32;
  return c >= 97 && c <= 122;
}

/** True when the last words before a full stop (`count` of them, with their punctuation) are an abbreviation. */
function isAbbreviation(words: string, count: number, own: ReadonlySet<string>): boolean {
  let candidate = isAsciiLetter(words, 0) ? words : words.replace(OPENING, '');
  if (count > 1) candidate = candidate.replace(/\s+/gu, ' ');
  if (candidate === '') return false;
  if (own.has(candidate) || SHARED.has(candidate)) return true;
  // A lower-case abbreviation is written with a capital at the start of a sentence ("Vgl.", "Dott.").
  const lowered = candidate[0]!.toLowerCase() + candidate.slice(1);
  if (lowered !== candidate && own.has(lowered)) return true;
  return count === 1 && INITIALS.test(candidate);
}

/**
 * True when the text before `end` (read no further back than `start`) ends, blanks and closing quotes or
 * brackets aside, with an abbreviation or an initial whose full stop ends no sentence in a text of the
 * given language. Reads a bounded number of characters before those blanks, whatever the text's length.
 */
export function endsWithAbbreviation(text: string, language: string, end = text.length, start = 0): boolean {
  let stop = end;
  while (stop > start && isBlank(text, stop - 1)) stop--;
  const floor = Math.max(start, stop - TAIL);
  while (stop > floor && isClosing(text, stop - 1)) stop--;
  if (text[stop - 1] !== '.') return false;
  const own = OWN[languageCode(language) ?? 'en'];
  let wordStart = stop;
  for (let count = 1; count <= MAX_WORDS; count++) {
    while (wordStart > floor && !isBlank(text, wordStart - 1)) wordStart--;
    // A word cut by the window is no abbreviation: every one fits in it with the punctuation around it.
    if (wordStart > start && !isBlank(text, wordStart - 1)) return false;
    if (isAbbreviation(text.slice(wordStart, stop), count, own)) return true;
    while (wordStart > floor && isBlank(text, wordStart - 1)) wordStart--;
    if (wordStart === floor) return false;
  }
  return false;
}
