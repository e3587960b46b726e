import { planSchema, type Plan } from '@research/core';
import { languageCode, languageProfile, type LanguageCode } from '../text/language';
import { questionNames } from '../text/names';
import { contentTerms, years } from '../text/tokens';

export interface PlannerInput {
  query: string;
  language: string;
  extraQueries: readonly string[];
  /** The run's creation time: "recent" is judged against it, so a re-plan gives the same plan. */
  referenceDate: Date;
}

type Templates = {
  definition: (x: string) => string;
  facts: (x: string) => string;
  causes: (x: string) => string;
  comparison: (x: string) => string;
  figures: (x: string) => string;
  current: (x: string) => string;
  counter: (x: string) => string;
  entity: (x: string) => string;
  verdict: (x: string) => string;
  statistics: string;
  definitionWord: string;
  latest: string;
};

const TEMPLATES: Record<LanguageCode, Templates> = {
  de: {
    definition: (x) => `Was ist ${x}?`,
    facts: (x) => `Welche belegten Fakten gibt es zu ${x}?`,
    causes: (x) => `Welche Ursachen und Wirkungen werden für ${x} genannt?`,
    comparison: (x) => `Worin unterscheiden sich die verglichenen Dinge bei ${x}?`,
    figures: (x) => `Welche Zahlen werden zu ${x} genannt?`,
    current: (x) => `Was ist der aktuelle Stand zu ${x}?`,
    counter: (x) => `Welche Quellen widersprechen den Aussagen zu ${x} oder schränken sie ein?`,
    entity: (x) => `Was ist über ${x} bekannt?`,
    verdict: (x) => `Trifft „${x}“ zu?`,
    statistics: 'Statistik',
    definitionWord: 'Definition',
    latest: 'aktuell',
  },
  en: {
    definition: (x) => `What is ${x}?`,
    facts: (x) => `Which established facts exist about ${x}?`,
    causes: (x) => `Which causes and effects are named for ${x}?`,
    comparison: (x) => `How do the compared things differ in ${x}?`,
    figures: (x) => `Which figures are given for ${x}?`,
    current: (x) => `What is the current state of ${x}?`,
    counter: (x) => `Which sources contradict or qualify the statements about ${x}?`,
    entity: (x) => `What is known about ${x}?`,
    verdict: (x) => `Is it true that "${x}"?`,
    statistics: 'statistics',
    definitionWord: 'definition',
    latest: 'latest',
  },
  fr: {
    definition: (x) => `Qu'est-ce que ${x} ?`,
    facts: (x) => `Quels faits établis existent sur ${x} ?`,
    causes: (x) => `Quelles causes et quels effets sont cités pour ${x} ?`,
    comparison: (x) => `En quoi les éléments comparés diffèrent-ils pour ${x} ?`,
    figures: (x) => `Quels chiffres sont donnés pour ${x} ?`,
    current: (x) => `Quelle est la situation actuelle de ${x} ?`,
    counter: (x) => `Quelles sources contredisent ou nuancent les affirmations sur ${x} ?`,
    entity: (x) => `Que sait-on de ${x} ?`,
    verdict: (x) => `Est-il vrai que « ${x} » ?`,
    statistics: 'statistiques',
    definitionWord: 'définition',
    latest: 'actuel',
  },
  es: {
    definition: (x) => `¿Qué es ${x}?`,
    facts: (x) => `¿Qué hechos establecidos hay sobre ${x}?`,
    causes: (x) => `¿Qué causas y efectos se mencionan para ${x}?`,
    comparison: (x) => `¿En qué se diferencian los elementos comparados en ${x}?`,
    figures: (x) => `¿Qué cifras se dan sobre ${x}?`,
    current: (x) => `¿Cuál es la situación actual de ${x}?`,
    counter: (x) => `¿Qué fuentes contradicen o matizan las afirmaciones sobre ${x}?`,
    entity: (x) => `¿Qué se sabe de ${x}?`,
    verdict: (x) => `¿Es cierto que «${x}»?`,
    statistics: 'estadísticas',
    definitionWord: 'definición',
    latest: 'actual',
  },
  it: {
    definition: (x) => `Che cos'è ${x}?`,
    facts: (x) => `Quali fatti accertati esistono su ${x}?`,
    causes: (x) => `Quali cause ed effetti sono indicati per ${x}?`,
    comparison: (x) => `In che cosa differiscono gli elementi confrontati in ${x}?`,
    figures: (x) => `Quali cifre sono indicate per ${x}?`,
    current: (x) => `Qual è la situazione attuale di ${x}?`,
    counter: (x) => `Quali fonti contraddicono o limitano le affermazioni su ${x}?`,
    entity: (x) => `Che cosa si sa di ${x}?`,
    verdict: (x) => `È vero che «${x}»?`,
    statistics: 'statistiche',
    definitionWord: 'definizione',
    latest: 'attuale',
  },
};

function timeSensitivity(query: string, language: string, reference: Date): Plan['time_sensitivity'] {
  const profile = languageProfile(language);
  if (profile.timeHigh.test(query)) return 'high';
  const mentioned = years(query);
  if (mentioned.some((y) => y >= reference.getUTCFullYear() - 5)) return 'medium';
  if (profile.timeMedium.test(query)) return 'medium';
  if (mentioned.length > 0) return 'low';
  return 'none';
}

function dedupe<T>(items: T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item).trim().toLowerCase();
    if (!k || seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/**
 * The extractive planner: decomposes the query from its own terms and question patterns in the run's
 * language. Categories come from question patterns, sub-questions from templates per category, names
 * in the query become their own searches, and counter-evidence queries pair the key terms with the
 * language's words for criticism. Pure: the same query, language and reference date give the same plan.
 */
export function extractivePlan(input: PlannerInput): Plan {
  const q = readQuery(input);
  const searchQueries = searchQueriesOf(q, input.extraQueries);
  return planSchema.parse({
    query: input.query,
    language: input.language,
    query_categories: q.categories,
    sub_questions: subQuestionsOf(q),
    search_queries: searchQueries,
    // A question after a fact (who, when, which) has an answer, not sides: criticism queries would only
    // spend its budget. Statements, and questions of causes and ways, get them.
    counter_evidence_queries: isFactoid(q)
      ? []
      : dedupe(
          q.profile.counterTerms.map((w) => `${q.topic} ${w}`),
          (c) => c,
        ),
    required_fields: requiredFieldsOf(q),
    search_dimensions: [...new Set([...searchQueries.map((s) => s.dimension), 'counter_evidence'])],
    time_sensitivity: q.time,
    confidence: planConfidence(q.terms.length),
  });
}

/** What the planner reads from the query: its terms, names, categories and time sensitivity. */
interface ReadQuery {
  query: string;
  profile: ReturnType<typeof languageProfile>;
  t: Templates;
  terms: string[];
  topic: string;
  entities: string[];
  time: Plan['time_sensitivity'];
  categories: string[];
}

function readQuery(input: PlannerInput): ReadQuery {
  const query = input.query.trim().slice(0, 300);
  const code = languageCode(input.language) ?? 'en';
  const profile = languageProfile(input.language);
  const terms = contentTerms(query);
  const entities = questionNames(query, input.language);
  const time = timeSensitivity(query, input.language, input.referenceDate);
  const categories = profile.categories.filter(([, cue]) => cue.test(query)).map(([name]) => name);
  if (time !== 'none') categories.push('temporal');
  if (categories.length === 0) categories.push('general');
  return {
    query,
    profile,
    t: TEMPLATES[code],
    terms,
    topic: terms.slice(0, 3).join(' ') || query,
    entities,
    time,
    categories,
  };
}

function subQuestionsOf({ t, topic, query, entities, time, categories }: ReadQuery): string[] {
  return dedupe(
    [
      ...(categories.includes('definition') ? [t.definition(topic)] : []),
      ...(categories.includes('verification') ? [t.verdict(query)] : []),
      t.facts(topic),
      ...entities.map((e) => t.entity(e)),
      ...(categories.includes('causal') ? [t.causes(topic)] : []),
      ...(categories.includes('comparison') ? [t.comparison(topic)] : []),
      ...(categories.includes('quantitative') ? [t.figures(topic)] : []),
      ...(time !== 'none' ? [t.current(topic)] : []),
      t.counter(topic),
    ],
    (q) => q,
  );
}

/**
 * The plan's searches: the question, the user's queries and the names the question holds; a question that is
 * no factoid (a statement, a why or a how) also searches its topic's definition, figures and latest state when
 * it asks for them. A factoid's answer is a fact the question's own words and names find: templates built
 * from its key terms ("… definition") search its topic in general and spend the queries its names need.
 */
function searchQueriesOf(q: ReadQuery, extraQueries: readonly string[]): Array<{ query: string; dimension: string }> {
  const { query, t, topic, entities, time, categories } = q;
  const general = !isFactoid(q);
  return dedupe(
    [
      { query, dimension: 'core' },
      ...extraQueries.map((x) => ({ query: x.trim().slice(0, 300), dimension: 'user' })),
      ...entities.map((e) => ({ query: e, dimension: 'entity' })),
      ...(general && categories.includes('definition')
        ? [{ query: `${topic} ${t.definitionWord}`, dimension: 'definition' }]
        : []),
      ...(general && categories.includes('quantitative')
        ? [{ query: `${topic} ${t.statistics}`, dimension: 'figures' }]
        : []),
      ...(general && (time === 'high' || time === 'medium')
        ? [{ query: `${topic} ${t.latest}`, dimension: 'recency' }]
        : []),
    ],
    (x) => x.query,
  );
}

/**
 * Whether the query asks for a fact (who, when, which): such a question has an answer, not sides, and its
 * searches are its own words and the names it holds; criticism and key-term queries would only spend its budget.
 */
export function asksForFact(input: PlannerInput): boolean {
  return isFactoid(readQuery(input));
}

/** A question asking for a fact: it ends in a question mark and asks neither why nor how to. */
function isFactoid({ query, categories }: ReadQuery): boolean {
  return /[?？]\s*$/u.test(query) && !categories.includes('causal') && !categories.includes('procedural');
}

function requiredFieldsOf({ categories, time, entities }: ReadQuery): string[] {
  return [
    'key_facts',
    ...(categories.includes('definition') ? ['definition'] : []),
    ...(categories.includes('verification') ? ['verdict'] : []),
    ...(categories.includes('quantitative') ? ['figures'] : []),
    ...(categories.includes('causal') ? ['causes'] : []),
    ...(categories.includes('comparison') ? ['comparison'] : []),
    ...(time !== 'none' ? ['dates'] : []),
    ...entities.map((e) => `about:${e}`),
  ];
}

/** How much a plan from the query's own terms can be trusted: more terms, more to search with. */
function planConfidence(termCount: number): number {
  if (termCount === 0) return 0.3;
  if (termCount === 1) return 0.5;
  return termCount <= 3 ? 0.65 : 0.75;
}
