import { words } from './tokens';

export interface Sentence {
  /** Exactly as it occurs in the text (trimmed). */
  text: string;
  /** Offset of `text` in the segmented text. */
  start: number;
}

// ICU's sentence segmenter breaks after every abbreviation ("Dr.", "Mio.", "z.B."); these are merged
// back. The list covers the service's languages; a break is also undone when the next piece starts in
// lower case or with a digit (a sentence never does).
const ABBREVIATION =
  /(?:^|[\s(])(?:[\p{L}]|dr|prof|mr|mrs|ms|st|nr|no|vol|ca|bzw|vgl|usw|evtl|ggf|inkl|mio|mrd|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|okt|nov|dec|dez|etc|vs|e\.g|i\.e|z\.b|u\.a|d\.h|s\.o|v\.a|bzw|jr|sr|inc|ltd|co|corp|fig|approx|mt|ft|km|kg)\.\s*$/iu;

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(language: string): Intl.Segmenter {
  let s = segmenters.get(language);
  if (!s) {
    try {
      s = new Intl.Segmenter(language, { granularity: 'sentence' });
    } catch {
      s = new Intl.Segmenter('en', { granularity: 'sentence' });
    }
    segmenters.set(language, s);
  }
  return s;
}

/**
 * Sentences of a text in the run's language (Intl.Segmenter), each an exact slice of the text. Lines are
 * segmented one by one, so no sentence crosses a block (a heading never joins the paragraph below it).
 */
export function sentences(text: string, language: string, options: { min?: number; max?: number } = {}): Sentence[] {
  const min = options.min ?? 25;
  const max = options.max ?? 600;
  const out: Sentence[] = [];
  const seg = segmenter(language || 'en');
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const pieces: Array<{ text: string; start: number }> = [];
    for (const s of seg.segment(line)) {
      const prev = pieces[pieces.length - 1];
      const trimmedNext = s.segment.trimStart();
      if (prev && (ABBREVIATION.test(prev.text) || /^[\p{Ll}\p{N}]/u.test(trimmedNext))) {
        prev.text += s.segment;
      } else {
        pieces.push({ text: s.segment, start: s.index });
      }
    }
    for (const piece of pieces) {
      const lead = piece.text.length - piece.text.trimStart().length;
      const trimmed = piece.text.trim();
      if (trimmed.length < min || trimmed.length > max || words(trimmed).length < 4) continue;
      out.push({ text: trimmed, start: lineStart + piece.start + lead });
    }
    lineStart += line.length + 1;
  }
  return out;
}
