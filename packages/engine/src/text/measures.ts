// Quantities with their unit as a range of values in one base unit per dimension, so that statements in
// different units can be compared ("30 feet" and "59 centimetres" are both lengths, 9.1 m and 0.59 m).

/** A stated quantity: [low, high] in the base unit of its dimension (a single number has low = high). */
export interface Measure {
  low: number;
  high: number;
  /** 'length', 'mass', 'percent', 'ppm', 'degC' or 'degF'. */
  dimension: string;
  /** Index of the word token that holds (the last) number, for finding what the quantity describes. */
  at: number;
  /** As written. */
  text: string;
}

const UNITS: ReadonlyMap<string, readonly [string, number]> = new Map<string, readonly [string, number]>([
  ...['mm', 'millimeter', 'millimeters', 'millimetre', 'millimetres'].map((w) => [w, ['length', 0.001]] as const),
  ...['cm', 'centimeter', 'centimeters', 'centimetre', 'centimetres'].map((w) => [w, ['length', 0.01]] as const),
  ...['m', 'meter', 'meters', 'metre', 'metres'].map((w) => [w, ['length', 1]] as const),
  ...['km', 'kilometer', 'kilometers', 'kilometre', 'kilometres'].map((w) => [w, ['length', 1000]] as const),
  ...['ft', 'foot', 'feet'].map((w) => [w, ['length', 0.3048]] as const),
  ...['inch', 'inches'].map((w) => [w, ['length', 0.0254]] as const),
  ...['mile', 'miles'].map((w) => [w, ['length', 1609.34]] as const),
  ...['kg', 'kilogram', 'kilograms'].map((w) => [w, ['mass', 1]] as const),
  ...['ton', 'tons', 'tonne', 'tonnes'].map((w) => [w, ['mass', 1000]] as const),
  ...['mt', 'megatonne', 'megatonnes', 'megaton', 'megatons'].map((w) => [w, ['mass', 1e9]] as const),
  ...['gt', 'gigatonne', 'gigatonnes', 'gigaton', 'gigatons'].map((w) => [w, ['mass', 1e12]] as const),
  ...['%', 'percent', 'per cent', 'prozent', 'pourcent', 'por ciento', 'per cento'].map(
    (w) => [w, ['percent', 1]] as const,
  ),
  ['ppm', ['ppm', 1]],
  ...['°c', '°', 'degree', 'degrees', 'celsius', 'degree celsius', 'degrees celsius', 'grad'].map(
    (w) => [w, ['degC', 1]] as const,
  ),
  ...['°f', 'fahrenheit', 'degree fahrenheit', 'degrees fahrenheit'].map((w) => [w, ['degF', 1]] as const),
]);

const SCALE: ReadonlyMap<string, number> = new Map([
  ['thousand', 1e3],
  ['million', 1e6],
  ['millions', 1e6],
  ['billion', 1e9],
  ['billions', 1e9],
  ['trillion', 1e12],
]);

const NUMBER_WORDS: ReadonlyMap<string, number> = new Map(
  'one two three four five six seven eight nine ten eleven twelve'.split(' ').map((w, i) => [w, i + 1]),
);

/** Degree words that name no scale. */
const BARE_DEGREE = new Set(['°', 'degree', 'degrees', 'grad']);

/** Every word of a unit (what a quantity is counted in, not what it describes). */
export const UNIT_WORDS: ReadonlySet<string> = new Set([...UNITS.keys()].flatMap((k) => k.split(' ')));

/** Words that make a number a lower or an upper bound. */
const AT_LEAST = /\b(more than|over|above|at least|exceeding|in excess of|greater than|upwards of)\s*$/iu;
const OR_MORE = /^\s*(or more|or higher|or greater|and more|and above|plus)\b/iu;
const OR_LESS = /^\s*(or less|or lower|or fewer|and below)\b/iu;
const AT_MOST = /\b(less than|under|below|up to|at most|as much as|as many as|no more than|fewer than)\s*$/iu;

function parseNumber(raw: string): number {
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(raw)) return Number(raw.replace(/,/g, ''));
  return Number(raw.replace(',', '.'));
}

const NUMBER = String.raw`(\d+(?:[.,]\d+)*|${[...NUMBER_WORDS.keys()].join('|')}|an?)`;
const UNIT = String.raw`(%|°\s*[cf]\b|°|per cent|degrees? (?:celsius|fahrenheit)|[\p{L}]+)`;
/** A number or a range of two ("30 to 95", "30–95", "between 30 and 130"), its scale word and its unit word. */
const PATTERN = new RegExp(
  String.raw`(?<![\p{L}\p{N}.,])(?:between\s+)?${NUMBER}(?:\s*(?:-|–|to|and)\s*${NUMBER})?(?:\s+(thousand|millions?|billions?|trillion))?\s*${UNIT}`,
  'giu',
);

function numberValue(raw: string): number | null {
  const lower = raw.toLowerCase();
  if (lower === 'a' || lower === 'an') return 1;
  const word = NUMBER_WORDS.get(lower);
  if (word !== undefined) return word;
  const value = parseNumber(raw);
  return Number.isFinite(value) ? value : null;
}

function isYear(raw: string): boolean {
  return /^(1[5-9]\d\d|20\d\d)$/.test(raw);
}

/** A single number's range once the words around it make it a bound ("over 100 tonnes", "six or more"). */
function bounded(range: [number, number], text: string, m: RegExpMatchArray): [number, number] {
  const at = m.index ?? 0;
  const before = text.slice(Math.max(0, at - 24), at);
  const after = text.slice(at + m[0].length, at + m[0].length + 12);
  if (AT_LEAST.test(before) || OR_MORE.test(after)) return [range[0], Infinity];
  if (AT_MOST.test(before) || OR_LESS.test(after)) return [0, range[1]];
  return range;
}

/**
 * The quantities a text states with a known unit (lengths, masses, percentages, ppm, degrees), ranges
 * and bounds included: "between 30 and 130 cm" is [0.3, 1.3] m, "over 100 tonnes" is [100 000, ∞) kg.
 * Spans of time are left out: "over the last 30 years" says when, not what was measured. `wordIndex(offset)` maps a character offset to the caller's word index. Years are not
 * quantities; "a" or "an" counts as 1 only before a unit ("about a degree").
 */
export function measures(text: string, wordIndex: (offset: number) => number): Measure[] {
  const out: Measure[] = [];
  const found = [...text.matchAll(PATTERN)].map((m) => ({
    m,
    unitWord: m[4]!.toLowerCase().replace(/\s+/g, ' ').replace(/^°\s*/, '°'),
  }));
  // A bare "degrees" is on the scale the text names first: a figure in the other scale after it is its
  // conversion ("two degrees Fahrenheit (one degree Celsius) … six degrees or more" speaks Fahrenheit).
  const degrees =
    found
      .filter((f) => !BARE_DEGREE.has(f.unitWord))
      .map((f) => UNITS.get(f.unitWord)?.[0])
      .find((d) => d === 'degC' || d === 'degF') ?? 'degC';
  for (const { m, unitWord } of found) {
    const [, first, second, scaleWord, unitRaw] = m;
    const known = UNITS.get(unitWord);
    if (!known) continue;
    const unit: readonly [string, number] = BARE_DEGREE.has(unitWord) ? [degrees, 1] : known;
    if ((isYear(first!) || (second && isYear(second))) && unit[0] !== 'percent') continue;
    // "a" and "an" stand for one only as the whole quantity ("a degree", not "a 30-year").
    if (/^an?$/i.test(first!) && second) continue;
    const low = numberValue(first!);
    const high = second ? numberValue(second) : low;
    if (low === null || high === null) continue;
    const scale = scaleWord ? (SCALE.get(scaleWord.toLowerCase()) ?? 1) : 1;
    const factor = unit[1] * scale;
    const stated: [number, number] = [Math.min(low, high) * factor, Math.max(low, high) * factor];
    const range = second ? stated : bounded(stated, text, m);
    out.push({
      low: range[0],
      high: range[1],
      dimension: unit[0],
      at: wordIndex(m.index + m[0].length - unitRaw!.length - 1),
      text: m[0].trim(),
    });
  }
  return out;
}

/**
 * Relative difference two ranges may have and still agree: sources round, convert and restate ("about
 * 20 cm", "8 inches"), so only a clear difference counts (1.8 against 3.2 mm, not 0.8 against 0.9 °C).
 */
export const MEASURE_TOLERANCE = 0.25;

/** Whether two measures of one dimension agree: their ranges overlap once widened by MEASURE_TOLERANCE. */
export function measuresAgree(a: Measure, b: Measure): boolean {
  const widen = (x: number, sign: number) => x * (1 + sign * MEASURE_TOLERANCE);
  return widen(a.low, -1) <= widen(b.high, 1) && widen(b.low, -1) <= widen(a.high, 1);
}
