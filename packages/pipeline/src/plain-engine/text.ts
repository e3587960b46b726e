// Plain text handling of the placeholder engine: terms, sentences and cue words, German and English.

const STOPWORDS = new Set(
  (
    'the a an and or of to in on for with by from at as is are was were be been being it its this that these those ' +
    'what which who whom whose when where why how does do did can could should would will shall may might must ' +
    'not no than then there their they them about into over under between after before during also more most ' +
    'some any such other only very just much many your you our we he she his her has have had i me my ' +
    'der die das den dem des ein eine einer eines einem einen und oder aber nicht ist sind war waren wird werden ' +
    'wurde wurden sein seine ihr ihre ich du er sie es wir ihr mit von zu zum zur im in am an auf aus bei für ' +
    'über unter nach vor seit bis durch gegen ohne um als wie was wer wo wann warum wieso weshalb welche welcher ' +
    'welches dass auch noch nur sehr mehr kann können soll sollte hat haben gibt es sich so'
  ).split(/\s+/),
);

/** Lower-cased word tokens (letters and digits of any script). */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Content words of a text in first-seen order: no stopwords, no one- or two-letter words (numbers stay). */
export function contentTerms(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const w of words(text)) {
    if (STOPWORDS.has(w) || (w.length < 3 && !/^\p{N}+$/u.test(w)) || seen.has(w)) continue;
    seen.add(w);
    out.push(w);
  }
  return out;
}

/** A crude stem so that plural and inflected forms meet (the real engine replaces this). */
export function stem(word: string): string {
  return word.length > 5 ? word.replace(/(ies|es|en|er|s|e|n)$/u, '') : word;
}

export function stemSet(text: string): Set<string> {
  return new Set(contentTerms(text).map(stem));
}

export function overlap(a: Set<string>, b: Set<string>): number {
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  const shared = overlap(a, b);
  const union = a.size + b.size - shared;
  return union === 0 ? 0 : shared / union;
}

export interface Sentence {
  /** Exactly as it occurs in the text. */
  text: string;
  start: number;
}

/** Sentences of a text, each an exact slice of it; lines are never joined, so no span crosses a block. */
export function sentences(text: string, minLength = 30, maxLength = 500): Sentence[] {
  const out: Sentence[] = [];
  // A sentence ends at . ! ? (with closing quotes) followed by whitespace, or at the end of a line.
  const pattern = /[^\n]+?(?:[.!?]+["'»“”)]*(?=\s|$)|(?=\n)|$)/g;
  for (const match of text.matchAll(pattern)) {
    const raw = match[0];
    const lead = raw.length - raw.trimStart().length;
    const trimmed = raw.trim();
    if (trimmed.length < minLength || trimmed.length > maxLength) continue;
    if (words(trimmed).length < 4) continue;
    out.push({ text: trimmed, start: (match.index ?? 0) + lead });
  }
  return out;
}

/** Four-digit years from 1500 to 2099 mentioned in a text. */
export function years(text: string): number[] {
  return [...text.matchAll(/\b(1[5-9]\d\d|20\d\d)\b/g)].map((m) => Number(m[1]));
}

const NEGATION =
  /\b(not|no|never|none|neither|nor|cannot|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|nicht|kein|keine|keiner|keinen|keinem|nie|niemals|weder)\b/i;

export function isNegated(text: string): boolean {
  return NEGATION.test(text);
}

const CUES: Array<[string, RegExp]> = [
  [
    'prediction',
    /\b(will|going to|expected to|forecast|predicts?|projected|wird|werden|voraussichtlich|erwartet|prognose\w*)\b/i,
  ],
  [
    'recommendation',
    /\b(should|ought to|recommends?|recommended|advises?|sollte|sollten|empfiehlt|empfohlen|empfehlung\w*|rät)\b/i,
  ],
  [
    'opinion',
    /\b(believes?|thinks?|argues?|argued|claims?|in (?:my|our) view|considered|meinen|meint|glaubt|argumentiert|kritisiert|umstritten|angeblich)\b/i,
  ],
];

/** Claim type from cue words: prediction, recommendation, opinion; a sentence with a number or year is a fact. */
export function claimType(sentence: string): 'fact' | 'opinion' | 'prediction' | 'recommendation' | 'claim' {
  for (const [type, cue] of CUES) if (cue.test(sentence)) return type as 'opinion' | 'prediction' | 'recommendation';
  if (/\p{N}/u.test(sentence)) return 'fact';
  return 'claim';
}

export function round2(n: number): number {
  return Math.round(Math.min(1, Math.max(0, n)) * 100) / 100;
}
