import { languageCode, type LanguageCode } from '../text/language';

/** The report's fixed wording in one language. */
export interface ReportText {
  noFindings: string;
  disagreementSentence: (topics: string, cites: string) => string;
  singleSource: (n: number) => string;
  unansweredField: (field: string) => string;
  unsupportedSubQuestion: (q: string) => string;
  searchBudget: (max: number, dropped: number) => string;
  llmFallback: (step: string, round: number, reason: string, count: number) => string;
  searchFailures: (round: number, failed: number, total: number) => string;
  ungrounded: (n: number) => string;
  noSources: string;
  contradictions: (n: number) => string;
  fieldNames: Record<string, string>;
  steps: Record<string, string>;
  modes: Record<string, string>;
  reasons: Record<string, string>;
  methodology: (m: {
    rounds: number;
    queries: number;
    perRound: string;
    fetched: number;
    rejected: number;
    claims: number;
    clusters: number;
    multiSource: number;
    contradictions: number;
    engines: string;
  }) => string;
  round: (r: number) => string;
}

const EN: ReportText = {
  noFindings: 'No sourced statements on this question were found.',
  disagreementSentence: (topics, cites) => `The sources disagree on ${topics} ${cites}.`,
  singleSource: (n) => `Finding [${n}] rests on a single source.`,
  unansweredField: (f) => `No sourced statement was found for "${f}".`,
  unsupportedSubQuestion: (q) => `The sub-question "${q}" remains without evidence.`,
  searchBudget: (max, dropped) =>
    `The budget of ${max} search queries ran out; ${dropped} planned queries were not sent.`,
  llmFallback: (step, round, reason, count) =>
    `${step} (round ${round}): the language model was not usable (${reason}${count > 1 ? `, ${count} times` : ''}); the extractive engine was used instead.`,
  searchFailures: (round, failed, total) => `In round ${round}, ${failed} of ${total} search queries failed.`,
  ungrounded: (n) => `${n} claims whose quotes could not be found in their sources were discarded.`,
  noSources: 'No source could be retrieved.',
  contradictions: (n) => `${n} contradiction(s) between sources were found; see disagreements.`,
  fieldNames: {
    key_facts: 'key facts',
    figures: 'figures',
    dates: 'dates',
    definition: 'definition',
    causes: 'causes',
    comparison: 'comparison',
    verdict: 'verdict',
  },
  steps: { plan: 'Planning', analyze: 'Claim extraction', compare: 'Comparison', synthesize: 'Report' },
  modes: {
    llm: 'language model',
    extractive: 'extractive engine',
    mixed: 'language model and extractive engine',
    deterministic: 'deterministic rules',
  },
  reasons: {
    budget: 'LLM request budget spent',
    context: 'prompt too large',
    http: 'server error',
    timeout: 'timeout',
    network: 'network error',
    invalid: 'invalid answer',
    aborted: 'aborted',
  },
  methodology: (m) =>
    `Research in ${m.rounds} round(s) with ${m.queries} search queries (${m.perRound}). ` +
    `${m.fetched} sources fetched, ${m.rejected} rejected. ${m.claims} claims extracted, grouped into ${m.clusters} ` +
    `propositions, ${m.multiSource} of them backed by several sources; ${m.contradictions} contradiction(s) found. ` +
    `Engines: ${m.engines}. Evidence scores come from one deterministic function of the evidence (source ` +
    `independence, primary-source proximity, cross-source support, contradiction, directness, date relevance); ` +
    `depth changes only the budgets.`,
  round: (r) => `round ${r}`,
};

const DE: ReportText = {
  noFindings: 'Zu dieser Frage wurden keine belegten Aussagen gefunden.',
  disagreementSentence: (topics, cites) => `Die Quellen widersprechen sich bei ${topics} ${cites}.`,
  singleSource: (n) => `Befund [${n}] stützt sich auf nur eine Quelle.`,
  unansweredField: (f) => `Für „${f}“ wurde keine belegte Aussage gefunden.`,
  unsupportedSubQuestion: (q) => `Die Teilfrage „${q}“ bleibt ohne Beleg.`,
  searchBudget: (max, dropped) =>
    `Das Budget von ${max} Suchanfragen war erschöpft; ${dropped} geplante Anfragen wurden nicht gesendet.`,
  llmFallback: (step, round, reason, count) =>
    `${step} (Runde ${round}): Das Sprachmodell war nicht nutzbar (${reason}${count > 1 ? `, ${count}-mal` : ''}); stattdessen wurde das extraktive Verfahren verwendet.`,
  searchFailures: (round, failed, total) => `In Runde ${round} schlugen ${failed} von ${total} Suchanfragen fehl.`,
  ungrounded: (n) => `${n} Aussagen, deren Zitate in ihren Quellen nicht auffindbar waren, wurden verworfen.`,
  noSources: 'Es konnte keine Quelle abgerufen werden.',
  contradictions: (n) => `Zwischen den Quellen wurden ${n} Widersprüche gefunden; siehe Abweichungen.`,
  fieldNames: {
    key_facts: 'zentrale Fakten',
    figures: 'Zahlen',
    dates: 'Daten',
    definition: 'Definition',
    causes: 'Ursachen',
    comparison: 'Vergleich',
    verdict: 'Urteil',
  },
  steps: { plan: 'Planung', analyze: 'Aussagenextraktion', compare: 'Vergleich', synthesize: 'Bericht' },
  modes: {
    llm: 'Sprachmodell',
    extractive: 'extraktives Verfahren',
    mixed: 'Sprachmodell und extraktives Verfahren',
    deterministic: 'deterministische Regeln',
  },
  reasons: {
    budget: 'Budget der LLM-Anfragen erschöpft',
    context: 'Prompt zu groß',
    http: 'Serverfehler',
    timeout: 'Zeitüberschreitung',
    network: 'Netzwerkfehler',
    invalid: 'ungültige Antwort',
    aborted: 'abgebrochen',
  },
  methodology: (m) =>
    `Recherche in ${m.rounds} Runde(n) mit ${m.queries} Suchanfragen (${m.perRound}). ` +
    `${m.fetched} Quellen abgerufen, ${m.rejected} verworfen. ${m.claims} Aussagen extrahiert und zu ${m.clusters} ` +
    `Kernaussagen gruppiert, davon ${m.multiSource} von mehreren Quellen gestützt; ${m.contradictions} Widerspruch/Widersprüche gefunden. ` +
    `Verfahren: ${m.engines}. Die Evidenzwerte stammen aus einer deterministischen Funktion der Belege ` +
    `(Unabhängigkeit der Quellen, Nähe zur Primärquelle, Stützung durch andere Quellen, Widerspruch, Direktheit, ` +
    `zeitliche Relevanz); die Tiefe ändert nur die Budgets.`,
  round: (r) => `Runde ${r}`,
};

const FR: ReportText = {
  ...EN,
  noFindings: "Aucune affirmation sourcée n'a été trouvée sur cette question.",
  disagreementSentence: (topics, cites) => `Les sources divergent sur ${topics} ${cites}.`,
  singleSource: (n) => `Le constat [${n}] repose sur une seule source.`,
  unansweredField: (f) => `Aucune affirmation sourcée n'a été trouvée pour « ${f} ».`,
  unsupportedSubQuestion: (q) => `La sous-question « ${q} » reste sans preuve.`,
  noSources: "Aucune source n'a pu être récupérée.",
  contradictions: (n) => `${n} contradiction(s) entre sources trouvée(s) ; voir les désaccords.`,
  round: (r) => `tour ${r}`,
};

const ES: ReportText = {
  ...EN,
  noFindings: 'No se encontraron afirmaciones con fuentes sobre esta pregunta.',
  disagreementSentence: (topics, cites) => `Las fuentes discrepan sobre ${topics} ${cites}.`,
  singleSource: (n) => `El hallazgo [${n}] se basa en una sola fuente.`,
  unansweredField: (f) => `No se encontró ninguna afirmación con fuente para «${f}».`,
  unsupportedSubQuestion: (q) => `La subpregunta «${q}» queda sin pruebas.`,
  noSources: 'No se pudo recuperar ninguna fuente.',
  contradictions: (n) => `Se encontraron ${n} contradicción(es) entre fuentes; ver desacuerdos.`,
  round: (r) => `ronda ${r}`,
};

const IT: ReportText = {
  ...EN,
  noFindings: 'Non sono state trovate affermazioni documentate su questa domanda.',
  disagreementSentence: (topics, cites) => `Le fonti non concordano su ${topics} ${cites}.`,
  singleSource: (n) => `Il risultato [${n}] si basa su una sola fonte.`,
  unansweredField: (f) => `Nessuna affermazione documentata trovata per «${f}».`,
  unsupportedSubQuestion: (q) => `La sotto-domanda «${q}» resta senza prove.`,
  noSources: 'Non è stato possibile recuperare alcuna fonte.',
  contradictions: (n) => `Trovate ${n} contraddizioni tra le fonti; vedere i disaccordi.`,
  round: (r) => `turno ${r}`,
};

const TEXTS: Record<LanguageCode, ReportText> = { de: DE, en: EN, fr: FR, es: ES, it: IT };

/** The report wording for a run's language (English for languages without their own). */
export function reportText(language: string): ReportText {
  return TEXTS[languageCode(language) ?? 'en'];
}
