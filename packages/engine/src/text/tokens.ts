import { STOPWORDS, textStopwords } from './language';

/** A word: letters and digits of any script (apostrophes split words). */
const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased word tokens (see WORD). */
export function words(text: string): string[] {
  return text.toLowerCase().match(WORD) ?? [];
}

const NUMERIC = /^\p{N}+$/u;

/**
 * An agent noun's "-or" ("director", "editors"), taken off where four letters or more stay: shorter words ending
 * so are words of their own ("color", "major", "actor"). Swept on the tune sets (first 300 of each; every gold page
 * / answer in report / first sentence, HotpotQA; 2Wiki): not taken off 84.0 / 78.9 / 43.7, 73.0 / 68.7 / 45.0 %;
 * where three, four or five letters stay alike, 84.0 / 78.9 / 43.3, 78.7 / 71.2 / 46.5 % (MuSiQue 50.8 / 27.9 /
 * 14.8 % in every case): four keeps those short words.
 */
const AGENT_OR = /(?<=\p{L}{4})ors?$/u;

/**
 * Content words in first-seen order: no stopwords, no one- or two-letter words (numbers stay). The stopwords are
 * those of the text's language (textStopwords); another language's are left out too where they are of a phrase in
 * that language, capitalised or beside another of them ("Die Jagd nach dem Glück", "und die Regel" in an English
 * sentence), and kept elsewhere, where they are words of the text's own ("where did he die", "his son").
 */
export function contentTerms(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  const lower = text.toLowerCase();
  const all: string[] = [];
  const at: number[] = [];
  WORD.lastIndex = 0;
  for (let m = WORD.exec(lower); m; m = WORD.exec(lower)) {
    all.push(m[0]);
    at.push(m.index);
  }
  const stopwords = textStopwords(all);
  const otherStop = (i: number) => STOPWORDS.has(all[i] ?? '') && !stopwords.has(all[i]!);
  // Written with a capital: its first letter is not the lower-cased text's.
  const capitalised = (i: number) => text[at[i]!] !== lower[at[i]!];
  for (let i = 0; i < all.length; i++) {
    const w = all[i]!;
    if (stopwords.has(w) || (w.length < 3 && !NUMERIC.test(w)) || seen.has(w)) continue;
    // Not the text's own stopword: another language's where it stands in a phrase of that language.
    if (STOPWORDS.has(w) && (capitalised(i) || otherStop(i - 1) || otherStop(i + 1))) continue;
    seen.add(w);
    out.push(w);
  }
  return out;
}

/**
 * A light suffix stripper shared by all languages, so that plural and inflected forms meet
 * ("plants"/"plant", "Quellen"/"Quelle"), and a doer meets the deed, "-er" and "-or" alike ("performer"/
 * "performed", "director"/"directed"). Precision matters less than recall here: it only decides which claims
 * look alike, never what a claim says.
 */
export function stem(word: string): string {
  if (word.length <= 4 || NUMERIC.test(word)) return word;
  const stemmed = word
    .replace(AGENT_OR, '')
    .replace(/(ations?|ungen|ung|ments?|ness|ities|ity|ismus|ions?)$/u, '')
    .replace(/(ies|ied)$/u, 'y')
    .replace(/(ing|ed|es|en|er|ern|em|s|e|n)$/u, '');
  return stemmed.length >= 3 ? stemmed : word;
}

/** Stemmed content terms of a text as a set; numbers are left out when `withNumbers` is false. */
export function termSet(text: string, withNumbers = true): Set<string> {
  const out = new Set<string>();
  for (const t of contentTerms(text)) {
    if (!withNumbers && NUMERIC.test(t)) continue;
    out.add(stem(t));
  }
  return out;
}

export function overlapCount(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let n = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const x of small) if (large.has(x)) n++;
  return n;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const shared = overlapCount(a, b);
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

/** Share of the smaller set found in the larger one (1 when one text's terms contain the other's). */
export function containment(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  const smaller = Math.min(a.size, b.size);
  return smaller === 0 ? 0 : overlapCount(a, b) / smaller;
}

/** Word 4-shingles of a text (for detecting copied text between sources). */
export function shingles(text: string, size = 4): Set<string> {
  const w = words(text);
  const out = new Set<string>();
  if (w.length < size) {
    if (w.length) out.add(w.join(' '));
    return out;
  }
  for (let i = 0; i + size <= w.length; i++) out.add(w.slice(i, i + size).join(' '));
  return out;
}

/** Four-digit years from 1500 to 2099 mentioned in a text. */
export function years(text: string): number[] {
  return [...text.matchAll(/(?<![\p{N}.,])(1[5-9]\d\d|20\d\d)(?![\p{N}]|[.,]\d)/gu)].map((m) => Number(m[1]));
}

export interface Quantity {
  value: number;
  /** The word after the number (its unit or counted noun), stemmed; '' when none. */
  unit: string;
  /** As written. */
  text: string;
}

const SCALE: Record<string, number> = {
  thousand: 1e3,
  tausend: 1e3,
  million: 1e6,
  millions: 1e6,
  mio: 1e6,
  millionen: 1e6,
  billion: 1e9,
  billions: 1e9,
  mrd: 1e9,
  milliarde: 1e9,
  milliarden: 1e9,
  trillion: 1e12,
};

function parseNumber(raw: string): number {
  // 1,234,567 and 1.234.567 are thousands groups; 3,5 and 3.5 are decimals.
  if (/^\d{1,3}([.,]\d{3})+$/.test(raw)) return Number(raw.replace(/[.,]/g, ''));
  return Number(raw.replace(',', '.'));
}

/**
 * Quantities a text states, years excluded: "40 percent", "3,5 Mio. Einwohner", "1,200 km". The unit is
 * the next content word, so "20 cm" and "35 cm" are comparable and "20 cm" and "35 species" are not.
 */
export function quantities(text: string): Quantity[] {
  const out: Quantity[] = [];
  const pattern = /(?<![\p{L}\p{N}.,])(\d+(?:[.,]\d+)*)(?:\s*(%|°\s*[CF]|[\p{L}]+\.?))?(?:\s+([\p{L}]+))?/gu;
  for (const m of text.matchAll(pattern)) {
    const raw = m[1]!;
    let value = parseNumber(raw);
    if (!Number.isFinite(value)) continue;
    let unitWord = (m[2] ?? '').replace(/\.$/, '').replace(/\s+/g, '').toLowerCase();
    let next = (m[3] ?? '').toLowerCase();
    const scale = SCALE[unitWord];
    if (scale) {
      value *= scale;
      unitWord = next;
      next = '';
    }
    const isYear = /^(1[5-9]\d\d|20\d\d)$/.test(raw) && !unitWord.match(/^(%|percent|prozent)/);
    if (isYear && !scale) continue;
    if (unitWord === '%' || unitWord === 'percent' || unitWord === 'prozent' || unitWord === 'pour') unitWord = '%';
    const unit = unitWord && !STOPWORDS.has(unitWord) ? stem(unitWord) : next && !STOPWORDS.has(next) ? stem(next) : '';
    out.push({ value, unit, text: m[0].trim() });
  }
  return out;
}

export function round2(n: number): number {
  return Math.round(Math.min(1, Math.max(0, n)) * 100) / 100;
}

export function clamp01(n: number): number {
  return Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0;
}
