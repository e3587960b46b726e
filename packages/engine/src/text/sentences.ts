import { createPause, type Pause } from '@research/core';
import { endsWithAbbreviation } from './abbreviations';

export interface Sentence {
  /** Exactly as it occurs in the text (trimmed). */
  text: string;
  /** Offset of `text` in the segmented text. */
  start: number;
}

export interface SentenceOptions {
  /** Shortest sentence kept, in characters (default 25). */
  min?: number;
  /** Longest sentence kept, in characters (default 600). */
  max?: number;
}

/**
 * Characters handed to the segmenter at once. V8's segment iterator costs time in proportion to the
 * length of the string it segments at every step, so a whole line made it quadratic (200 KB of "Dr. ":
 * 34 s); windows of this size keep each step short.
 */
const WINDOW = 1024;
/** Segments read from one window before the next window starts (bounds a window's steps as well). */
const SEGMENTS_PER_WINDOW = 64;

/** Segmenters kept at most; keys are base languages, so this holds every language the service meets. */
const MAX_SEGMENTERS = 64;
const segmenters = new Map<string, Intl.Segmenter>();

/**
 * The segmenter's key for a language tag: its base language ("de-AT", "de-CH-1996" → "de"), since ICU's
 * sentence rules differ by language only; a tag that is malformed or names a language ICU has no data
 * for gets English, whose rules are the default ones.
 */
function segmenterLanguage(language: string): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(language || 'en');
    const base = new Intl.Locale(canonical!).language;
    return Intl.Segmenter.supportedLocalesOf([base]).length > 0 ? base : 'en';
  } catch {
    return 'en';
  }
}

/** Language tags whose segmenter key is remembered at most (a deployment meets a handful). */
const MAX_REMEMBERED_TAGS = 256;
/** Longer tags are not remembered (tags in real use are far shorter), so the memo's size stays small. */
const MAX_REMEMBERED_TAG_LENGTH = 64;
/** segmenterLanguage by raw tag: it parses and canonicalises the tag, and runs for every text segmented. */
const keysByTag = new Map<string, string>();

function segmenterKey(language: string): string {
  let key = keysByTag.get(language);
  if (key !== undefined) return key;
  key = segmenterLanguage(language);
  if (language.length <= MAX_REMEMBERED_TAG_LENGTH) {
    if (keysByTag.size >= MAX_REMEMBERED_TAGS) keysByTag.delete(keysByTag.keys().next().value!);
    keysByTag.set(language, key);
  }
  return key;
}

/** Segmenters and language tags cached (for tests: both stay bounded whatever language strings arrive). */
export function segmenterCacheSizes(): { segmenters: number; tags: number } {
  return { segmenters: segmenters.size, tags: keysByTag.size };
}

function segmenter(language: string): Intl.Segmenter {
  const key = segmenterKey(language);
  let s = segmenters.get(key);
  if (s) return s;
  s = new Intl.Segmenter(key, { granularity: 'sentence' });
  if (segmenters.size >= MAX_SEGMENTERS) segmenters.delete(segmenters.keys().next().value!);
  segmenters.set(key, s);
  return s;
}

/**
 * The segments of a line, exactly as the segmenter finds them in the whole line, read window by
 * window. A break depends on the text up to the next terminator only (UAX #29), so every break that has
 * a further break after it in the same window is final; the last two segments of a window are read
 * again at the start of the next one. A window holding fewer than three segments is doubled. Yields
 * null after each window: a point where a caller may pause.
 */
function* lineSegments(seg: Intl.Segmenter, line: string): Generator<{ segment: string; index: number } | null> {
  let start = 0;
  let size = WINDOW;
  while (start < line.length) {
    const end = Math.min(line.length, start + size);
    const found: Array<{ segment: string; index: number }> = [];
    let complete = true;
    for (const s of seg.segment(line.slice(start, end))) {
      if (found.length === SEGMENTS_PER_WINDOW) {
        complete = false;
        break;
      }
      found.push({ segment: s.segment, index: start + s.index });
    }
    if (complete && end === line.length) {
      yield* found;
      return;
    }
    if (found.length < 3) {
      size *= 2;
      yield null;
      continue;
    }
    for (let i = 0; i < found.length - 2; i++) yield found[i]!;
    yield null;
    start = found[found.length - 2]!.index;
    size = WINDOW;
  }
}

const WORD = /[\p{L}\p{N}]+/gu;

/** True when a text has at least `n` words as `words` counts them (lower-cased first), reading no further than needed. */
function hasWords(text: string, n: number): boolean {
  const lower = text.toLowerCase();
  WORD.lastIndex = 0;
  for (let i = 0; i < n; i++) if (!WORD.exec(lower)) return false;
  return true;
}

/**
 * The sentences of a text one by one, in order (see `sentences`), with a null between them now and then:
 * a point where a caller reading a long text may pause. Linear in the length of the text.
 */
export function* sentenceSteps(
  text: string,
  language: string,
  options: SentenceOptions = {},
): Generator<Sentence | null> {
  const rules = { min: options.min ?? 25, max: options.max ?? 600, language };
  const seg = segmenter(language);
  for (let lineStart = 0; lineStart <= text.length;) {
    const newline = text.indexOf('\n', lineStart);
    const lineEnd = newline < 0 ? text.length : newline;
    yield* lineSentenceSteps(seg, text.slice(lineStart, lineEnd), lineStart, rules);
    lineStart = lineEnd + 1;
  }
}

/** `sentenceSteps` for one line that starts at `lineStart` in the text; always ends with a sentence or a null. */
function* lineSentenceSteps(
  seg: Intl.Segmenter,
  line: string,
  lineStart: number,
  { min, max, language }: { min: number; max: number; language: string },
): Generator<Sentence | null> {
  // The piece being built: line[start, end); `trimmedEnd` is the end of its last non-blank character.
  let piece: { start: number; end: number; trimmedEnd: number } | null = null;
  const sentenceOf = (p: { start: number; end: number }): Sentence | null => {
    if (p.end - p.start < min) return null;
    const raw = line.slice(p.start, p.end);
    const trimmed = raw.trim();
    if (trimmed.length < min || trimmed.length > max || !hasWords(trimmed, 4)) return null;
    return { text: trimmed, start: lineStart + p.start + (raw.length - raw.trimStart().length) };
  };
  for (const s of lineSegments(seg, line)) {
    if (s === null) {
      yield null;
      continue;
    }
    const kept = s.segment.trimEnd().length;
    if (piece) {
      // ICU's segmenter breaks after every abbreviation ("Dr.", "Mio.", "U.S."); such a break is undone, and
      // so is one before a piece that starts in lower case or with a digit (a sentence never does).
      const abbreviation = endsWithAbbreviation(line, language, piece.trimmedEnd, piece.start);
      if (abbreviation || /^[\p{Ll}\p{N}]/u.test(s.segment.trimStart())) {
        piece.end = s.index + s.segment.length;
        if (kept > 0) piece.trimmedEnd = s.index + kept;
        continue;
      }
      const sentence = sentenceOf(piece);
      if (sentence) yield sentence;
    }
    piece = { start: s.index, end: s.index + s.segment.length, trimmedEnd: s.index + kept };
  }
  const last = piece && sentenceOf(piece);
  yield last ?? null;
}

/**
 * Sentences of a text in the run's language (Intl.Segmenter), each an exact slice of the text. Lines are
 * segmented one by one, so no sentence crosses a block (a heading never joins the paragraph below it).
 */
export function sentences(text: string, language: string, options: SentenceOptions = {}): Sentence[] {
  const out: Sentence[] = [];
  for (const s of sentenceSteps(text, language, options)) if (s) out.push(s);
  return out;
}

/** `sentences` for texts of any length: the same sentences, read with a pause between slices of work. */
export async function sentencesSliced(
  text: string,
  language: string,
  options: SentenceOptions = {},
  pause: Pause = createPause(),
): Promise<Sentence[]> {
  const out: Sentence[] = [];
  for (const s of sentenceSteps(text, language, options)) {
    if (s) out.push(s);
    else await pause();
  }
  return out;
}
