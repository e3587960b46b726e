import { languageCode, type LanguageCode } from '../text/language';

/** The report's fixed wording in one language. */
export interface ReportText {
  noFindings: string;
  /** The summary when sources were read but none of their statements is about the question. */
  notAnswered: (sources: number) => string;
  /** The summary's first sentence when the question asks for a fact that no statement read gives. */
  answerNotFound: string;
  /** An uncertainty of every report whose claims no language model read: disagreements need one. */
  disagreementsNeedModel: string;
  disagreementSentence: (topics: string, cites: string) => string;
  /** The `count` findings that rest on one source each, named in one sentence ("F2, F3, F5"). */
  singleSource: (count: number, findings: string) => string;
  unansweredField: (field: string) => string;
  unsupportedSubQuestion: (q: string) => string;
  searchBudget: (max: number, dropped: number) => string;
  downloadBudget: (max: number) => string;
  llmFallback: (step: string, round: number, reason: string, count: number) => string;
  searchFailures: (round: number, failed: number, total: number) => string;
  ungrounded: (n: number) => string;
  /** The run was stopped by its client before `step` of `round`: what the report rests on is partial. */
  stopped: (step: string, round: number) => string;
  /** The methodology's sentence of a follow-up: what it started from, copied from the run it follows up. */
  inherited: (sources: number, claims: number) => string;
  noSources: string;
  contradictions: (n: number) => string;
  /** The `detail` of a negation disagreement: which of the two statements denies the other. */
  negationDetail: (firstDenies: boolean) => string;
  /** The `detail` of a dispute the language model judged without a cue in the words (kind `stance`). */
  judgedDetail: string;
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
    /** Propositions about the question (the findings are taken from them); the others are left out. */
    about: number;
    contradictions: number;
    /** Contradictions the report lists as disagreements: those touching a proposition about the question. */
    disagreements: number;
    engines: string;
  }) => string;
  round: (r: number) => string;
  /** The phrases of the methodology's sentence on the run's source controls (issue 13 section 4). */
  controls: {
    label: string;
    only: (hosts: string) => string;
    none: (hosts: string) => string;
    after: (date: string) => string;
    max: (n: number) => string;
    leftOut: string;
    otherDomains: (n: number) => string;
    before: (n: number, date: string) => string;
  };
  /** Sources kept without a known date although the run asks for sources published on or after `date`. */
  undated: (n: number, date: string) => string;
}

const EN: ReportText = {
  noFindings: 'No sourced statements on this question were found.',
  disagreementsNeedModel:
    'No language model read the sources: disagreements are found only where sources contradict each other in so many words (a negation, opposite words, other figures); a model that judges each statement’s stance finds more (set LLM_BASE_URL).',
  answerNotFound: 'None of the statements read states what the question asks for; the closest ones follow.',
  notAnswered: (n) =>
    `The ${n} source(s) read do not answer this question: none of their statements is about it, so the report lists no findings.`,
  disagreementSentence: (topics, cites) => `The sources disagree on ${topics} ${cites}.`,
  singleSource: (count, findings) =>
    count === 1
      ? `Finding ${findings} rests on a single source.`
      : `Findings ${findings} rest on a single source each.`,
  unansweredField: (f) => `No sourced statement was found for "${f}".`,
  unsupportedSubQuestion: (q) => `The sub-question "${q}" remains without evidence.`,
  searchBudget: (max, dropped) =>
    `The budget of ${max} search queries ran out; ${dropped} planned queries were not sent.`,
  downloadBudget: (max) => `The download budget of ${max} bytes ran out; some pages were not fetched.`,
  llmFallback: (step, round, reason, count) =>
    `${step} (round ${round}): the language model was not usable (${reason}${count > 1 ? `, ${count} times` : ''}); the extractive engine was used instead.`,
  searchFailures: (round, failed, total) => `In round ${round}, ${failed} of ${total} search queries failed.`,
  ungrounded: (n) => `${n} claims whose quotes could not be found in their sources were discarded.`,
  inherited: (sources, claims) =>
    `This run is a follow-up: it started from the ${sources} sources and ${claims} claims of the run it follows up, which it did not fetch or read again.`,
  stopped: (step, round) =>
    `The research was stopped before it finished (at ${step}, round ${round}); this report rests only on what was found until then.`,
  noSources: 'No source could be retrieved.',
  contradictions: (n) => `${n} contradiction(s) between sources were found; see disagreements.`,
  negationDetail: (firstDenies) => (firstDenies ? 'the first statement denies it' : 'the second statement denies it'),
  judgedDetail: 'the language model read the second statement as refuting it',
  fieldNames: {
    key_facts: 'key facts',
    figures: 'figures',
    dates: 'dates',
    definition: 'definition',
    causes: 'causes',
    comparison: 'comparison',
    verdict: 'verdict',
  },
  steps: {
    plan: 'Planning',
    search: 'Search',
    fetch: 'Reading sources',
    bridge: 'Second search hop',
    analyze: 'Claim extraction',
    compare: 'Comparison',
    synthesize: 'Report',
  },
  modes: {
    llm: 'language model',
    extractive: 'extractive engine',
    mixed: 'language model and extractive engine',
    deterministic: 'deterministic rules',
  },
  reasons: {
    budget: 'LLM request budget spent',
    tokens: 'LLM token budget spent',
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
    `propositions, ${m.multiSource} of them backed by several sources; ${m.about} of them about the question ` +
    `(${m.clusters - m.about} left out of the findings as not about it). ${m.contradictions} contradiction(s) found, ` +
    `${m.disagreements} of them about the question (listed as disagreements). ` +
    `Engines: ${m.engines}. Evidence scores come from one deterministic function of the evidence (source ` +
    `independence, primary-source proximity, cross-source support, contradiction, directness, date relevance); ` +
    `depth changes only the budgets.`,
  round: (r) => `round ${r}`,
  controls: {
    label: 'Source controls',
    only: (h) => `only sources from ${h}`,
    none: (h) => `none from ${h}`,
    after: (d) => `published on or after ${d}`,
    max: (n) => `at most ${n} sources`,
    leftOut: 'Left out by them',
    otherDomains: (n) => `${n} hit(s) or page(s) on other domains`,
    before: (n, d) => `${n} dated before ${d}`,
  },
  undated: (n, d) =>
    `${n} source(s) have no known publication date, so whether they were published on or after ${d} could not be checked.`,
};

const DE: ReportText = {
  noFindings: 'Zu dieser Frage wurden keine belegten Aussagen gefunden.',
  disagreementsNeedModel:
    'Kein Sprachmodell hat die Quellen gelesen: Widersprüche werden nur gefunden, wo Quellen einander ausdrücklich widersprechen (eine Verneinung, gegensätzliche Wörter, andere Zahlen); ein Modell, das die Haltung jeder Aussage beurteilt, findet mehr (LLM_BASE_URL setzen).',
  answerNotFound: 'Keine der gelesenen Aussagen nennt, wonach die Frage fragt; die nächstliegenden folgen.',
  notAnswered: (n) =>
    `Die ${n} gelesenen Quellen beantworten diese Frage nicht: Keine ihrer Aussagen handelt davon, daher nennt der Bericht keine Befunde.`,
  disagreementSentence: (topics, cites) => `Die Quellen widersprechen sich bei ${topics} ${cites}.`,
  singleSource: (count, findings) =>
    count === 1
      ? `Befund ${findings} stützt sich auf nur eine Quelle.`
      : `Die Befunde ${findings} stützen sich auf je nur eine Quelle.`,
  unansweredField: (f) => `Für „${f}“ wurde keine belegte Aussage gefunden.`,
  unsupportedSubQuestion: (q) => `Die Teilfrage „${q}“ bleibt ohne Beleg.`,
  searchBudget: (max, dropped) =>
    `Das Budget von ${max} Suchanfragen war erschöpft; ${dropped} geplante Anfragen wurden nicht gesendet.`,
  downloadBudget: (max) => `Das Download-Budget von ${max} Bytes war erschöpft; einige Seiten wurden nicht abgerufen.`,
  llmFallback: (step, round, reason, count) =>
    `${step} (Runde ${round}): Das Sprachmodell war nicht nutzbar (${reason}${count > 1 ? `, ${count}-mal` : ''}); stattdessen wurde das extraktive Verfahren verwendet.`,
  searchFailures: (round, failed, total) => `In Runde ${round} schlugen ${failed} von ${total} Suchanfragen fehl.`,
  ungrounded: (n) => `${n} Aussagen, deren Zitate in ihren Quellen nicht auffindbar waren, wurden verworfen.`,
  inherited: (sources, claims) =>
    `Diese Recherche ist eine Folgefrage: Sie begann mit den ${sources} Quellen und ${claims} Aussagen der Recherche, an die sie anschließt, und hat diese weder erneut abgerufen noch erneut gelesen.`,
  stopped: (step, round) =>
    `Die Recherche wurde vor ihrem Ende angehalten (bei ${step}, Runde ${round}); dieser Bericht beruht nur auf dem bis dahin Gefundenen.`,
  noSources: 'Es konnte keine Quelle abgerufen werden.',
  contradictions: (n) => `Zwischen den Quellen wurden ${n} Widersprüche gefunden; siehe Abweichungen.`,
  negationDetail: (firstDenies) => (firstDenies ? 'die erste Aussage verneint es' : 'die zweite Aussage verneint es'),
  judgedDetail: 'das Sprachmodell las die zweite Aussage als Widerlegung',
  fieldNames: {
    key_facts: 'zentrale Fakten',
    figures: 'Zahlen',
    dates: 'Daten',
    definition: 'Definition',
    causes: 'Ursachen',
    comparison: 'Vergleich',
    verdict: 'Urteil',
  },
  steps: {
    plan: 'Planung',
    search: 'Suche',
    fetch: 'Quellenabruf',
    bridge: 'Zweiter Suchschritt',
    analyze: 'Aussagenextraktion',
    compare: 'Vergleich',
    synthesize: 'Bericht',
  },
  modes: {
    llm: 'Sprachmodell',
    extractive: 'extraktives Verfahren',
    mixed: 'Sprachmodell und extraktives Verfahren',
    deterministic: 'deterministische Regeln',
  },
  reasons: {
    budget: 'Budget der LLM-Anfragen erschöpft',
    tokens: 'Token-Budget des LLM erschöpft',
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
    `Kernaussagen gruppiert, davon ${m.multiSource} von mehreren Quellen gestützt; ${m.about} davon betreffen die Frage, ` +
    `die übrigen ${m.clusters - m.about} sind nicht unter den Befunden. ${m.contradictions} Widerspruch/Widersprüche ` +
    `gefunden, davon ${m.disagreements} zur Frage (als Abweichungen aufgeführt). ` +
    `Verfahren: ${m.engines}. Die Evidenzwerte stammen aus einer deterministischen Funktion der Belege ` +
    `(Unabhängigkeit der Quellen, Nähe zur Primärquelle, Stützung durch andere Quellen, Widerspruch, Direktheit, ` +
    `zeitliche Relevanz); die Tiefe ändert nur die Budgets.`,
  round: (r) => `Runde ${r}`,
  controls: {
    label: 'Quellenvorgaben',
    only: (h) => `nur Quellen von ${h}`,
    none: (h) => `keine von ${h}`,
    after: (d) => `veröffentlicht am oder nach dem ${d}`,
    max: (n) => `höchstens ${n} Quellen`,
    leftOut: 'Dadurch ausgeschlossen',
    otherDomains: (n) => `${n} Treffer oder Seiten auf anderen Domains`,
    before: (n, d) => `${n} mit Datum vor dem ${d}`,
  },
  undated: (n, d) =>
    `${n} Quelle(n) ohne bekanntes Veröffentlichungsdatum; ob sie am oder nach dem ${d} erschienen, ließ sich nicht prüfen.`,
};

const FR: ReportText = {
  noFindings: "Aucune affirmation sourcée n'a été trouvée sur cette question.",
  disagreementsNeedModel:
    "Aucun modèle de langue n'a lu les sources : les désaccords ne sont trouvés que là où les sources se contredisent en toutes lettres (une négation, des mots opposés, d'autres chiffres) ; un modèle qui juge la position de chaque affirmation en trouve davantage (définir LLM_BASE_URL).",
  answerNotFound: 'Aucune des affirmations lues ne donne ce que demande la question ; les plus proches suivent.',
  notAnswered: (n) =>
    `Les ${n} source(s) lues ne répondent pas à cette question : aucune de leurs affirmations ne la traite, le rapport ne présente donc aucun constat.`,
  disagreementSentence: (topics, cites) => `Les sources divergent sur ${topics} ${cites}.`,
  singleSource: (count, findings) =>
    count === 1
      ? `Le constat ${findings} repose sur une seule source.`
      : `Les constats ${findings} reposent chacun sur une seule source.`,
  unansweredField: (f) => `Aucune affirmation sourcée n'a été trouvée pour « ${f} ».`,
  unsupportedSubQuestion: (q) => `La sous-question « ${q} » reste sans preuve.`,
  searchBudget: (max, dropped) =>
    `Le budget de ${max} requêtes de recherche était épuisé ; ${dropped} requêtes prévues n'ont pas été envoyées.`,
  downloadBudget: (max) =>
    `Le budget de téléchargement de ${max} octets était épuisé ; certaines pages n'ont pas été récupérées.`,
  llmFallback: (step, round, reason, count) =>
    `${step} (tour ${round}) : le modèle de langue n'était pas utilisable (${reason}${count > 1 ? `, ${count} fois` : ''}) ; le procédé extractif a été utilisé à sa place.`,
  searchFailures: (round, failed, total) =>
    `Au tour ${round}, ${failed} requêtes de recherche sur ${total} ont échoué.`,
  ungrounded: (n) => `${n} affirmations dont les citations sont introuvables dans leurs sources ont été écartées.`,
  inherited: (sources, claims) =>
    `Cette recherche est une question de suivi : elle est partie des ${sources} sources et ${claims} affirmations de la recherche qu’elle prolonge, sans les récupérer ni les relire.`,
  stopped: (step, round) =>
    `La recherche a été arrêtée avant sa fin (à l’étape ${step}, tour ${round}) ; ce rapport ne repose que sur ce qui avait été trouvé jusque-là.`,
  noSources: "Aucune source n'a pu être récupérée.",
  contradictions: (n) => `${n} contradiction(s) entre sources trouvée(s) ; voir les désaccords.`,
  negationDetail: (firstDenies) => (firstDenies ? 'la première le nie' : 'la seconde le nie'),
  judgedDetail: 'le modèle de langue a lu la seconde comme une réfutation',
  fieldNames: {
    key_facts: 'faits essentiels',
    figures: 'chiffres',
    dates: 'dates',
    definition: 'définition',
    causes: 'causes',
    comparison: 'comparaison',
    verdict: 'verdict',
  },
  steps: {
    plan: 'Planification',
    search: 'Recherche',
    fetch: 'Lecture des sources',
    bridge: 'Deuxième étape de recherche',
    analyze: 'Extraction des affirmations',
    compare: 'Comparaison',
    synthesize: 'Rapport',
  },
  modes: {
    llm: 'modèle de langue',
    extractive: 'procédé extractif',
    mixed: 'modèle de langue et procédé extractif',
    deterministic: 'règles déterministes',
  },
  reasons: {
    budget: 'budget de requêtes au modèle épuisé',
    tokens: 'budget de jetons du modèle épuisé',
    context: 'prompt trop volumineux',
    http: 'erreur du serveur',
    timeout: "délai d'attente dépassé",
    network: 'erreur réseau',
    invalid: 'réponse invalide',
    aborted: 'interrompu',
  },
  methodology: (m) =>
    `Recherche en ${m.rounds} tour(s) avec ${m.queries} requêtes de recherche (${m.perRound}). ` +
    `${m.fetched} sources récupérées, ${m.rejected} écartées. ${m.claims} affirmations extraites, regroupées en ` +
    `${m.clusters} propositions, dont ${m.multiSource} étayées par plusieurs sources ; ${m.about} portent sur la ` +
    `question, les ${m.clusters - m.about} autres sont écartées des constats. ${m.contradictions} contradiction(s) ` +
    `trouvée(s), dont ${m.disagreements} sur la question (listées comme désaccords). Procédés : ${m.engines}. Les scores de preuve proviennent d'une seule fonction ` +
    `déterministe des preuves (indépendance des sources, proximité de la source primaire, soutien par d'autres ` +
    `sources, contradiction, caractère direct, pertinence temporelle) ; la profondeur ne change que les budgets.`,
  round: (r) => `tour ${r}`,
  controls: {
    label: 'Contrôles des sources',
    only: (h) => `uniquement des sources de ${h}`,
    none: (h) => `aucune de ${h}`,
    after: (d) => `publiées le ${d} ou après`,
    max: (n) => `au plus ${n} sources`,
    leftOut: 'Écartés par ces contrôles',
    otherDomains: (n) => `${n} résultat(s) ou page(s) d'autres domaines`,
    before: (n, d) => `${n} daté(s) d'avant le ${d}`,
  },
  undated: (n, d) =>
    `${n} source(s) sans date de publication connue : impossible de vérifier si elles datent du ${d} ou après.`,
};

const ES: ReportText = {
  noFindings: 'No se encontraron afirmaciones con fuentes sobre esta pregunta.',
  disagreementsNeedModel:
    'Ningún modelo de lenguaje leyó las fuentes: los desacuerdos solo se encuentran donde las fuentes se contradicen de forma explícita (una negación, palabras opuestas, otras cifras); un modelo que juzgue la postura de cada afirmación encuentra más (definir LLM_BASE_URL).',
  answerNotFound:
    'Ninguna de las afirmaciones leídas indica lo que pide la pregunta; a continuación, las más cercanas.',
  notAnswered: (n) =>
    `Las ${n} fuentes consultadas no responden a esta pregunta: ninguna de sus afirmaciones trata de ella, por lo que el informe no presenta hallazgos.`,
  disagreementSentence: (topics, cites) => `Las fuentes discrepan sobre ${topics} ${cites}.`,
  singleSource: (count, findings) =>
    count === 1
      ? `El hallazgo ${findings} se basa en una sola fuente.`
      : `Los hallazgos ${findings} se basan cada uno en una sola fuente.`,
  unansweredField: (f) => `No se encontró ninguna afirmación con fuente para «${f}».`,
  unsupportedSubQuestion: (q) => `La subpregunta «${q}» queda sin pruebas.`,
  searchBudget: (max, dropped) =>
    `Se agotó el presupuesto de ${max} consultas de búsqueda; ${dropped} consultas previstas no se enviaron.`,
  downloadBudget: (max) => `Se agotó el presupuesto de descarga de ${max} bytes; algunas páginas no se descargaron.`,
  llmFallback: (step, round, reason, count) =>
    `${step} (ronda ${round}): el modelo de lenguaje no se pudo usar (${reason}${count > 1 ? `, ${count} veces` : ''}); en su lugar se usó el procedimiento extractivo.`,
  searchFailures: (round, failed, total) =>
    `En la ronda ${round} fallaron ${failed} de ${total} consultas de búsqueda.`,
  ungrounded: (n) => `Se descartaron ${n} afirmaciones cuyas citas no se encontraron en sus fuentes.`,
  inherited: (sources, claims) =>
    `Esta investigación es una pregunta de seguimiento: partió de las ${sources} fuentes y ${claims} afirmaciones de la investigación a la que sigue, sin volver a descargarlas ni a leerlas.`,
  stopped: (step, round) =>
    `La investigación se detuvo antes de terminar (en ${step}, ronda ${round}); este informe solo se basa en lo encontrado hasta entonces.`,
  noSources: 'No se pudo recuperar ninguna fuente.',
  contradictions: (n) => `Se encontraron ${n} contradicción(es) entre fuentes; ver desacuerdos.`,
  negationDetail: (firstDenies) => (firstDenies ? 'la primera lo niega' : 'la segunda lo niega'),
  judgedDetail: 'el modelo de lenguaje leyó la segunda como una refutación',
  fieldNames: {
    key_facts: 'hechos clave',
    figures: 'cifras',
    dates: 'fechas',
    definition: 'definición',
    causes: 'causas',
    comparison: 'comparación',
    verdict: 'veredicto',
  },
  steps: {
    plan: 'Planificación',
    search: 'Búsqueda',
    fetch: 'Lectura de fuentes',
    bridge: 'Segundo paso de búsqueda',
    analyze: 'Extracción de afirmaciones',
    compare: 'Comparación',
    synthesize: 'Informe',
  },
  modes: {
    llm: 'modelo de lenguaje',
    extractive: 'procedimiento extractivo',
    mixed: 'modelo de lenguaje y procedimiento extractivo',
    deterministic: 'reglas deterministas',
  },
  reasons: {
    budget: 'presupuesto de solicitudes al modelo agotado',
    tokens: 'presupuesto de tokens del modelo agotado',
    context: 'prompt demasiado grande',
    http: 'error del servidor',
    timeout: 'tiempo de espera agotado',
    network: 'error de red',
    invalid: 'respuesta no válida',
    aborted: 'interrumpido',
  },
  methodology: (m) =>
    `Investigación en ${m.rounds} ronda(s) con ${m.queries} consultas de búsqueda (${m.perRound}). ` +
    `${m.fetched} fuentes descargadas, ${m.rejected} descartadas. ${m.claims} afirmaciones extraídas, agrupadas en ` +
    `${m.clusters} proposiciones, ${m.multiSource} de ellas respaldadas por varias fuentes; ${m.about} tratan de la ` +
    `pregunta, las otras ${m.clusters - m.about} quedan fuera de los hallazgos. ${m.contradictions} contradicción(es) ` +
    `encontrada(s), ${m.disagreements} de ellas sobre la pregunta (listadas como desacuerdos). Procedimientos: ${m.engines}. Las puntuaciones de evidencia provienen de una ` +
    `única función determinista de la evidencia (independencia de las fuentes, cercanía a la fuente primaria, apoyo ` +
    `de otras fuentes, contradicción, carácter directo, relevancia temporal); la profundidad solo cambia los presupuestos.`,
  round: (r) => `ronda ${r}`,
  controls: {
    label: 'Controles de fuentes',
    only: (h) => `solo fuentes de ${h}`,
    none: (h) => `ninguna de ${h}`,
    after: (d) => `publicadas el ${d} o después`,
    max: (n) => `como máximo ${n} fuentes`,
    leftOut: 'Descartados por ellos',
    otherDomains: (n) => `${n} resultado(s) o página(s) de otros dominios`,
    before: (n, d) => `${n} con fecha anterior al ${d}`,
  },
  undated: (n, d) =>
    `${n} fuente(s) sin fecha de publicación conocida: no se pudo comprobar si se publicaron el ${d} o después.`,
};

const IT: ReportText = {
  noFindings: 'Non sono state trovate affermazioni documentate su questa domanda.',
  disagreementsNeedModel:
    'Nessun modello linguistico ha letto le fonti: i disaccordi si trovano solo dove le fonti si contraddicono esplicitamente (una negazione, parole opposte, altre cifre); un modello che giudichi la posizione di ogni affermazione ne trova di più (impostare LLM_BASE_URL).',
  answerNotFound: 'Nessuna delle affermazioni lette indica ciò che la domanda chiede; seguono le più vicine.',
  notAnswered: (n) =>
    `Le ${n} fonti consultate non rispondono a questa domanda: nessuna delle loro affermazioni la riguarda, quindi il rapporto non riporta risultati.`,
  disagreementSentence: (topics, cites) => `Le fonti non concordano su ${topics} ${cites}.`,
  singleSource: (count, findings) =>
    count === 1
      ? `Il risultato ${findings} si basa su una sola fonte.`
      : `I risultati ${findings} si basano ciascuno su una sola fonte.`,
  unansweredField: (f) => `Nessuna affermazione documentata trovata per «${f}».`,
  unsupportedSubQuestion: (q) => `La sotto-domanda «${q}» resta senza prove.`,
  searchBudget: (max, dropped) =>
    `Il budget di ${max} interrogazioni di ricerca è esaurito; ${dropped} interrogazioni previste non sono state inviate.`,
  downloadBudget: (max) => `Il budget di download di ${max} byte è esaurito; alcune pagine non sono state scaricate.`,
  llmFallback: (step, round, reason, count) =>
    `${step} (turno ${round}): il modello linguistico non era utilizzabile (${reason}${count > 1 ? `, ${count} volte` : ''}); al suo posto è stato usato il procedimento estrattivo.`,
  searchFailures: (round, failed, total) =>
    `Nel turno ${round} sono fallite ${failed} interrogazioni di ricerca su ${total}.`,
  ungrounded: (n) => `Sono state scartate ${n} affermazioni le cui citazioni non si trovano nelle loro fonti.`,
  inherited: (sources, claims) =>
    `Questa ricerca è una domanda di approfondimento: è partita dalle ${sources} fonti e ${claims} affermazioni della ricerca che prosegue, senza scaricarle né leggerle di nuovo.`,
  stopped: (step, round) =>
    `La ricerca è stata interrotta prima della fine (a ${step}, turno ${round}); questo rapporto si basa solo su quanto trovato fino ad allora.`,
  noSources: 'Non è stato possibile recuperare alcuna fonte.',
  contradictions: (n) => `Trovate ${n} contraddizioni tra le fonti; vedere i disaccordi.`,
  negationDetail: (firstDenies) => (firstDenies ? 'la prima lo nega' : 'la seconda lo nega'),
  judgedDetail: 'il modello linguistico ha letto la seconda come una confutazione',
  fieldNames: {
    key_facts: 'fatti essenziali',
    figures: 'cifre',
    dates: 'date',
    definition: 'definizione',
    causes: 'cause',
    comparison: 'confronto',
    verdict: 'giudizio',
  },
  steps: {
    plan: 'Pianificazione',
    search: 'Ricerca',
    fetch: 'Lettura delle fonti',
    bridge: 'Secondo passo di ricerca',
    analyze: 'Estrazione delle affermazioni',
    compare: 'Confronto',
    synthesize: 'Rapporto',
  },
  modes: {
    llm: 'modello linguistico',
    extractive: 'procedimento estrattivo',
    mixed: 'modello linguistico e procedimento estrattivo',
    deterministic: 'regole deterministiche',
  },
  reasons: {
    budget: 'budget di richieste al modello esaurito',
    tokens: 'budget di token del modello esaurito',
    context: 'prompt troppo grande',
    http: 'errore del server',
    timeout: 'tempo scaduto',
    network: 'errore di rete',
    invalid: 'risposta non valida',
    aborted: 'interrotto',
  },
  methodology: (m) =>
    `Ricerca in ${m.rounds} turno/i con ${m.queries} interrogazioni di ricerca (${m.perRound}). ` +
    `${m.fetched} fonti scaricate, ${m.rejected} scartate. ${m.claims} affermazioni estratte, raggruppate in ` +
    `${m.clusters} proposizioni, di cui ${m.multiSource} sostenute da più fonti; ${m.about} riguardano la ` +
    `domanda, le altre ${m.clusters - m.about} restano fuori dai risultati. ${m.contradictions} contraddizione/i ` +
    `trovata/e, di cui ${m.disagreements} sulla domanda (elencate come disaccordi). Procedimenti: ${m.engines}. I punteggi delle prove derivano da un'unica funzione ` +
    `deterministica delle prove (indipendenza delle fonti, vicinanza alla fonte primaria, sostegno di altre fonti, ` +
    `contraddizione, carattere diretto, rilevanza temporale); la profondità cambia solo i budget.`,
  round: (r) => `turno ${r}`,
  controls: {
    label: 'Controlli sulle fonti',
    only: (h) => `solo fonti da ${h}`,
    none: (h) => `nessuna da ${h}`,
    after: (d) => `pubblicate il ${d} o dopo`,
    max: (n) => `al massimo ${n} fonti`,
    leftOut: 'Esclusi da essi',
    otherDomains: (n) => `${n} risultato/i o pagina/e di altri domini`,
    before: (n, d) => `${n} con data anteriore al ${d}`,
  },
  undated: (n, d) =>
    `${n} fonte/i senza data di pubblicazione nota: non è stato possibile verificare se siano state pubblicate il ${d} o dopo.`,
};

const TEXTS: Record<LanguageCode, ReportText> = { de: DE, en: EN, fr: FR, es: ES, it: IT };

/**
 * The report wording for a run's language. German (the default), English, French, Spanish and Italian
 * each have every template; any other language falls back to English explicitly: the report builder then
 * adds `englishFallback` to the uncertainties, so the reader learns why the wording is English.
 */
export function reportText(language: string): ReportText {
  return TEXTS[languageCode(language) ?? 'en'];
}

/** Whether a run's language has report templates of its own (else the report is worded in English). */
export function hasReportText(language: string): boolean {
  return languageCode(language) !== null;
}

/** Said (in English) when a run's language has no report templates. */
export const englishFallback = (language: string): string =>
  `The report's own wording is in English: there are no report templates for the language "${language}".`;
