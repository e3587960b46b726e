import { planSchema, type Plan } from '@research/core';
import type { StepContext } from '../steps';
import { isGerman } from './language';
import { contentTerms, years } from './text';

const HIGH_TIME =
  /\b(today|current(?:ly)?|latest|now|recent(?:ly)?|this year|heute|aktuell\w*|derzeit\w*|neueste\w*|jüngste\w*|gegenwärtig\w*|dieses jahr)\b/i;
const MEDIUM_TIME = /\b(since|trend\w*|developments?|seit|entwicklung\w*|zukunft|future)\b/i;

const CATEGORIES: Array<[string, RegExp]> = [
  ['comparison', /\b(vs\.?|versus|compared?|comparison|difference|better|vergleich\w*|unterschied\w*|besser|oder)\b/i],
  [
    'causal',
    /\b(why|cause[sd]?|effects?|impacts?|consequences?|warum|weshalb|wieso|ursache\w*|wirkung\w*|auswirkung\w*|folgen)\b/i,
  ],
  [
    'quantitative',
    /\b(how many|how much|number of|statistics?|percent\w*|rate|wie viele|wie viel|anzahl|statistik\w*|prozent\w*|quote)\b/i,
  ],
  ['procedural', /\b(how to|how does|how do|wie kann|wie funktioniert|wie geht|anleitung)\b/i],
  ['definition', /^\s*(what is|what are|who is|who was|define|definition|was ist|was sind|wer ist|wer war)\b/i],
];

function timeSensitivity(query: string, now: Date): Plan['time_sensitivity'] {
  if (HIGH_TIME.test(query)) return 'high';
  const mentioned = years(query);
  if (mentioned.some((y) => y >= now.getUTCFullYear() - 5)) return 'medium';
  if (MEDIUM_TIME.test(query)) return 'medium';
  if (mentioned.length > 0) return 'low';
  return 'none';
}

function dedupe<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item).toLowerCase();
    if (!k || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * Plans from the query's own terms: the query itself first, the user's extra queries, the key terms,
 * single aspects, then counter-evidence queries (searched in later rounds when there are several).
 */
export function planStep(ctx: StepContext, now = new Date()): Plan {
  const { run } = ctx;
  const query = run.query.trim().slice(0, 300);
  const terms = contentTerms(query);
  const keyTerms = terms.slice(0, 4).join(' ') || query;
  const german = isGerman(run.language);
  const time = timeSensitivity(query, now);
  const categories = CATEGORIES.filter(([, cue]) => cue.test(query)).map(([name]) => name);
  if (time !== 'none') categories.push('temporal');
  if (categories.length === 0) categories.push('general');

  const extra = Array.isArray(run.extra_queries)
    ? run.extra_queries.filter((q): q is string => typeof q === 'string')
    : [];
  const searchQueries = dedupe(
    [
      { query, dimension: 'core' },
      ...extra.map((q) => ({ query: q.trim().slice(0, 300), dimension: 'user' })),
      ...(terms.length >= 2 ? [{ query: keyTerms, dimension: 'key_terms' }] : []),
      ...(terms.length >= 2
        ? terms
            .filter((t) => t.length >= 4)
            .slice(0, 3)
            .map((t) => ({ query: t, dimension: 'aspect' }))
        : []),
    ],
    (q) => q.query,
  );
  const counter = dedupe(
    german ? [`${keyTerms} Kritik`, `${keyTerms} Kontroverse`] : [`${keyTerms} criticism`, `${keyTerms} controversy`],
    (q) => q,
  );
  const subQuestions = german
    ? [
        `Was ist über „${query}“ belegt?`,
        `Welche Fakten und Zahlen gibt es zu ${keyTerms}?`,
        'Welche Quellen widersprechen oder schränken die Aussagen ein?',
        ...(time !== 'none' ? ['Was ist der aktuelle Stand?'] : []),
      ]
    : [
        `What is established about "${query}"?`,
        `Which facts and figures exist on ${keyTerms}?`,
        'Which sources contradict or qualify the statements?',
        ...(time !== 'none' ? ['What is the current state?'] : []),
      ];
  const requiredFields = [
    'key_facts',
    'sources',
    'uncertainties',
    ...(categories.includes('definition') ? ['definition'] : []),
    ...(categories.includes('quantitative') ? ['figures'] : []),
    ...(time !== 'none' ? ['dates'] : []),
  ];
  const confidence = terms.length === 0 ? 0.3 : terms.length === 1 ? 0.5 : terms.length <= 3 ? 0.7 : 0.8;
  return planSchema.parse({
    query: run.query,
    language: run.language,
    query_categories: categories,
    sub_questions: subQuestions,
    search_queries: searchQueries,
    counter_evidence_queries: counter,
    required_fields: requiredFields,
    search_dimensions: [...new Set([...searchQueries.map((q) => q.dimension), 'counter_evidence'])],
    time_sensitivity: time,
    confidence,
  });
}

/** The queries of one round: all planned queries in order, split evenly across the rounds. */
export function queriesOfRound(plan: Plan, round: number, rounds: number): string[] {
  const all = dedupe([...plan.search_queries.map((q) => q.query), ...plan.counter_evidence_queries], (q) => q);
  const size = Math.ceil(all.length / Math.max(1, rounds));
  return all.slice((round - 1) * size, round * size);
}
