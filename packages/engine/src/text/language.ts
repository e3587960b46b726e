// Per-language word lists of the extractive engine: stopwords, question patterns, claim-type cues,
// negation, hedges, and the opposite verdicts the contradiction detector knows. German is the service's
// default language; English, French, Spanish and Italian have their own lists; any other language uses
// the English cue words together with a union of all stopwords (a generic fallback).

export type LanguageCode = 'de' | 'en' | 'fr' | 'es' | 'it';

export interface LanguageProfile {
  readonly code: LanguageCode;
  readonly stopwords: ReadonlySet<string>;
  /** Question patterns per query category (matched case-insensitively against the query). */
  readonly categories: ReadonlyArray<readonly [string, RegExp]>;
  readonly timeHigh: RegExp;
  readonly timeMedium: RegExp;
  /** Claim-type cues in priority order: prediction, recommendation, opinion. */
  readonly cues: ReadonlyArray<readonly ['prediction' | 'recommendation' | 'opinion', RegExp]>;
  readonly negation: RegExp;
  readonly hedges: RegExp;
  /** Words that mark a sentence as reporting someone else's finding (secondary). */
  readonly secondhand: RegExp;
  /** Words that mark first-hand reporting (primary): our study, we measured. */
  readonly firsthand: RegExp;
  /** Words added to queries that look for counter-evidence. */
  readonly counterTerms: readonly [string, string];
  /**
   * A sentence opening that leans on the sentence before it: a pronoun or demonstrative standing for what that
   * sentence named ("He", "This", "The opposite"), or a connective answering it ("But", "However", "Now").
   */
  readonly leansBack: RegExp;
}

const words = (text: string) => new Set(text.split(/\s+/).filter(Boolean));

const EN_STOP =
  'the a an and or of to in on for with by from at as is are was were be been being it its this that these those ' +
  'what which who whom whose when where why how does do did can could should would will shall may might must ' +
  'not no than then there their they them about into over under between after before during also more most ' +
  'some any such other only very just much many your you our we he she his her has have had i me my one';
const DE_STOP =
  'der die das den dem des ein eine einer eines einem einen und oder aber nicht ist sind war waren wird werden ' +
  'wurde wurden sein seine seiner seinem ihr ihre ihren ich du er sie es wir mit von zu zum zur im in am an auf aus ' +
  'bei für über unter nach vor seit bis durch gegen ohne um als wie was wer wo wann warum wieso weshalb welche ' +
  'welcher welches dass auch noch nur sehr mehr kann können soll sollte hat haben gibt sich so ob denn dies diese';
const FR_STOP =
  'le la les un une des du de et ou mais ne pas est sont était étaient sera seront être été avec pour par sur dans ' +
  'en au aux ce cette ces qui que quoi quel quelle quels quelles comment pourquoi quand où il elle ils elles nous ' +
  'vous son sa ses leur leurs plus moins aussi très se sont a ont';
const ES_STOP =
  'el la los las un una unos unas y o pero no es son era eran será fue fueron ser sido con para por sobre en del al ' +
  'de que qué quien quién cual cuál como cómo por qué cuando cuándo donde dónde él ella ellos ellas nosotros su sus ' +
  'más menos también muy se ha han lo le les';
const IT_STOP =
  'il lo la i gli le un uno una e o ma non è sono era erano sarà fu furono essere stato con per da su in nel nella ' +
  'del della dei delle di che chi quale quali come perché quando dove lui lei loro noi suo sua suoi più meno anche ' +
  'molto si ha hanno al alla';

const EN: LanguageProfile = {
  code: 'en',
  stopwords: words(EN_STOP),
  categories: [
    ['comparison', /\b(vs\.?|versus|compared?|comparison|difference|better|worse)\b/i],
    ['causal', /\b(why|cause[sd]?|effects?|impacts?|consequences?|leads? to)\b/i],
    ['quantitative', /\b(how many|how much|number of|statistics?|percent\w*|rate|share|amount)\b/i],
    ['procedural', /\b(how to|how does|how do|how can|steps?)\b/i],
    ['definition', /^\s*(what is|what are|who is|who was|who were|define|definition)\b/i],
    ['verification', /^\s*(is|are|was|were|does|do|did|can|has|have)\b/i],
  ],
  timeHigh: /\b(today|current(?:ly)?|latest|now|recent(?:ly)?|this year)\b/i,
  timeMedium: /\b(since|trends?|developments?|future|outlook)\b/i,
  cues: [
    ['prediction', /\b(will|going to|expected to|forecasts?|predicts?|projected|likely to)\b/i],
    ['recommendation', /\b(should|ought to|recommends?|recommended|advises?|must be)\b/i],
    ['opinion', /\b(believes?|thinks?|argues?|argued|claims?|in (?:my|our) view|considered|critics?)\b/i],
  ],
  negation:
    /\b(not|no|never|none|neither|nor|cannot|without|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|hasn't|haven't)\b/i,
  hedges:
    /\b(may|might|could|possibly|perhaps|reportedly|allegedly|suggests?|appears?|seems?|estimated|about|around)\b/i,
  secondhand: /\b(according to|reported|reports|said|says|cited|quoted|sources say)\b/i,
  firsthand: /\b(we (?:found|measured|observed|conducted|estimate)|our (?:study|survey|data|analysis)|this study)\b/i,
  counterTerms: ['criticism', 'controversy'],
  leansBack:
    /^\W*(?:he|she|it|its|they|them|their|his|her|this|that|these|those|such|both|neither|either|but|and|or|so|yet|also|however|still|then|thus|hence|therefore|instead|meanwhile|moreover|furthermore|besides|actually|well|now|indeed|otherwise|nevertheless|nonetheless|likewise|similarly|consequently|accordingly|the (?:opposite|same|latter|former|reverse)|in (?:addition|fact|contrast|turn|response|particular)|as a result|on the other hand|at the same time|for (?:example|instance)|by contrast|even so|after all|that said)\b/iu,
};

const DE: LanguageProfile = {
  code: 'de',
  stopwords: words(DE_STOP),
  categories: [
    ['comparison', /\b(vs\.?|versus|vergleich\w*|unterschied\w*|besser|schlechter)\b/i],
    ['causal', /\b(warum|weshalb|wieso|ursache\w*|wirkung\w*|auswirkung\w*|folgen|führt)\b/i],
    ['quantitative', /\b(wie viele|wie viel|anzahl|statistik\w*|prozent\w*|quote|anteil|menge)\b/i],
    ['procedural', /\b(wie kann|wie funktioniert|wie geht|anleitung|schritte)\b/i],
    ['definition', /^\s*(was ist|was sind|wer ist|wer war|wer waren|definition)\b/i],
    ['verification', /^\s*(ist|sind|war|waren|hat|haben|gibt es|stimmt es|kann|können)\b/i],
  ],
  timeHigh: /\b(heute|aktuell\w*|derzeit\w*|neueste\w*|jüngste\w*|gegenwärtig\w*|dieses jahr|zurzeit)\b/i,
  timeMedium: /\b(seit|trend\w*|entwicklung\w*|zukunft|ausblick)\b/i,
  cues: [
    ['prediction', /\b(wird|werden|voraussichtlich|erwartet|prognose\w*|dürfte|künftig)\b/i],
    ['recommendation', /\b(sollte|sollten|empfiehlt|empfohlen|empfehlung\w*|rät|muss|müssen)\b/i],
    ['opinion', /\b(meinen|meint|glaubt|argumentiert|kritisiert|umstritten|angeblich|kritiker\w*|ansicht)\b/i],
  ],
  negation: /\b(nicht|kein|keine|keiner|keinen|keinem|keines|nie|niemals|weder|noch nie|ohne)\b/i,
  hedges:
    /\b(möglicherweise|vielleicht|eventuell|wohl|angeblich|vermutlich|scheint|etwa|rund|ungefähr|schätzungsweise)\b/i,
  secondhand: /\b(laut|zufolge|berichtet\w*|sagte|sagt|zitiert|nach angaben)\b/i,
  firsthand:
    /\b(wir (?:fanden|haben gemessen|beobachteten|schätzen)|unsere[rn]? (?:studie|umfrage|daten|analyse)|diese studie)\b/i,
  counterTerms: ['Kritik', 'Kontroverse'],
  leansBack:
    /^\W*(?:er|es|sie|ihr|ihre|sein|seine|dies|diese|dieser|dieses|dabei|dadurch|daher|darum|deshalb|deswegen|danach|dann|aber|doch|jedoch|auch|außerdem|zudem|trotzdem|allerdings|stattdessen|somit|also|beide|das gegenteil)\b/iu,
};

const FR: LanguageProfile = {
  code: 'fr',
  stopwords: words(FR_STOP),
  categories: [
    ['comparison', /\b(vs\.?|versus|compar\w*|différence|meilleur|pire)\b/i],
    ['causal', /\b(pourquoi|cause[s]?|effets?|impacts?|conséquences?)\b/i],
    ['quantitative', /\b(combien|nombre de|statistiques?|pour ?cent|taux|part)\b/i],
    ['procedural', /\b(comment faire|comment fonctionne|étapes)\b/i],
    ['definition', /^\s*(qu'est-ce que|qu’est-ce que|qui est|qui était|définition)\b/i],
    ['verification', /^\s*(est-ce que|est-il|est-elle)\b/i],
  ],
  timeHigh: /\b(aujourd'hui|aujourd’hui|actuel\w*|dernier\w*|récent\w*|cette année|maintenant)\b/i,
  timeMedium: /\b(depuis|tendances?|évolution\w*|avenir)\b/i,
  cues: [
    ['prediction', /\b(sera|seront|va|vont|devrait|prévu\w*|prévision\w*)\b/i],
    ['recommendation', /\b(faut|doit|doivent|recommande\w*|conseille\w*)\b/i],
    ['opinion', /\b(pense|pensent|croit|estime|affirme|selon moi|critiques?)\b/i],
  ],
  negation: /\b(ne|pas|jamais|aucun\w*|ni|sans|non)\b/i,
  hedges: /\b(peut-être|pourrait|possiblement|environ|apparemment|semble)\b/i,
  secondhand: /\b(selon|d'après|rapporte\w*|a déclaré|cité)\b/i,
  firsthand: /\b(nous avons (?:trouvé|mesuré|observé)|notre (?:étude|enquête|analyse))\b/i,
  counterTerms: ['critique', 'controverse'],
  leansBack:
    /^\W*(?:il|elle|ils|elles|cela|ceci|ce|ça|celui|celle|ceux|celles|mais|cependant|pourtant|toutefois|ainsi|donc|aussi|ensuite|puis|alors|néanmoins|en outre|de plus|par ailleurs|par contre|en revanche|au contraire|les deux)\b/iu,
};

const ES: LanguageProfile = {
  code: 'es',
  stopwords: words(ES_STOP),
  categories: [
    ['comparison', /\b(vs\.?|versus|compar\w*|diferencia\w*|mejor|peor)\b/i],
    ['causal', /\b(por qué|causa[s]?|efectos?|impactos?|consecuencias?)\b/i],
    ['quantitative', /\b(cuántos|cuántas|cuánto|número de|estadísticas?|por ciento|porcentaje|tasa)\b/i],
    ['procedural', /\b(cómo se|cómo funciona|pasos)\b/i],
    ['definition', /^\s*(qué es|qué son|quién es|quién fue|definición)\b/i],
    ['verification', /^\s*(es|son|fue|hay|puede)\b/i],
  ],
  timeHigh: /\b(hoy|actual\w*|último\w*|reciente\w*|este año|ahora)\b/i,
  timeMedium: /\b(desde|tendencias?|evolución|futuro)\b/i,
  cues: [
    ['prediction', /\b(será|serán|va a|van a|se espera|previsto\w*|pronóstico\w*)\b/i],
    ['recommendation', /\b(debería|deberían|debe|recomienda\w*|aconseja\w*)\b/i],
    ['opinion', /\b(cree|creen|piensa|opina|argumenta|críticos?)\b/i],
  ],
  negation: /\b(no|nunca|jamás|ningún|ninguna|ninguno|ni|sin)\b/i,
  hedges: /\b(quizás|tal vez|posiblemente|podría|aproximadamente|parece)\b/i,
  secondhand: /\b(según|informó|dijo|citado)\b/i,
  firsthand: /\b(hemos (?:encontrado|medido|observado)|nuestro (?:estudio|análisis))\b/i,
  counterTerms: ['crítica', 'controversia'],
  leansBack:
    /^\W*(?:él|ella|ellos|ellas|esto|eso|esta|este|estos|estas|pero|sin embargo|también|además|entonces|luego|así|por eso|por (?:lo )?tanto|no obstante|en cambio|al contrario|ambos|ambas)(?![\p{L}])/iu,
};

const IT: LanguageProfile = {
  code: 'it',
  stopwords: words(IT_STOP),
  categories: [
    ['comparison', /\b(vs\.?|versus|confront\w*|differenza|migliore|peggiore)\b/i],
    ['causal', /\b(perché|causa|cause|effetti|effetto|impatto|conseguenze)\b/i],
    ['quantitative', /\b(quanti|quante|quanto|numero di|statistiche|per cento|percentuale|tasso)\b/i],
    ['procedural', /\b(come si|come funziona|passaggi)\b/i],
    ['definition', /^\s*(che cos'è|cos'è|cosa sono|chi è|chi era|definizione)\b/i],
    ['verification', /^\s*(è|sono|era|c'è|può)\b/i],
  ],
  timeHigh: /\b(oggi|attual\w*|ultim\w*|recent\w*|quest'anno|adesso)\b/i,
  timeMedium: /\b(dal|tendenz\w*|evoluzione|futuro)\b/i,
  cues: [
    ['prediction', /\b(sarà|saranno|si prevede|previsto\w*|previsione\w*)\b/i],
    ['recommendation', /\b(dovrebbe|dovrebbero|deve|raccomanda\w*|consiglia\w*)\b/i],
    ['opinion', /\b(crede|credono|pensa|ritiene|sostiene|critici)\b/i],
  ],
  negation: /\b(non|mai|nessun\w*|né|senza)\b/i,
  hedges: /\b(forse|probabilmente|potrebbe|circa|sembra)\b/i,
  secondhand: /\b(secondo|riferito|ha detto|citato)\b/i,
  firsthand: /\b(abbiamo (?:trovato|misurato|osservato)|il nostro (?:studio|sondaggio))\b/i,
  counterTerms: ['critica', 'controversia'],
  leansBack:
    /^\W*(?:egli|ella|lui|lei|loro|esso|essa|questo|questa|questi|queste|ciò|ma|però|tuttavia|inoltre|anche|quindi|poi|allora|dunque|invece|entrambi|entrambe|al contrario)(?![\p{L}])/iu,
};

const PROFILES: Record<LanguageCode, LanguageProfile> = { de: DE, en: EN, fr: FR, es: ES, it: IT };

const ALL_STOPWORDS = new Set([...EN.stopwords, ...DE.stopwords, ...FR.stopwords, ...ES.stopwords, ...IT.stopwords]);

const GENERIC: LanguageProfile = { ...EN, stopwords: ALL_STOPWORDS };

/** The base language code of a run's language tag ("de-AT" → "de"), or null when none is known. */
export function languageCode(language: string | null | undefined): LanguageCode | null {
  const base = (language ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return base in PROFILES ? (base as LanguageCode) : null;
}

/** The word lists for a run's language; unknown languages get the generic profile. */
export function languageProfile(language: string | null | undefined): LanguageProfile {
  const code = languageCode(language);
  return code ? PROFILES[code] : GENERIC;
}

/**
 * Every known language's stopwords: a word that is one in any of them (a capitalised "Die" opening a sentence is
 * no name's first word). Term sets use textStopwords instead, which keep another language's stopwords that are
 * words of the text's own ("die", "war", "son" in English).
 */
export const STOPWORDS: ReadonlySet<string> = ALL_STOPWORDS;

const STOP_LISTS = [EN, DE, FR, ES, IT].map((p) => p.stopwords);
/** Each stopword's languages as bits of STOP_LISTS' indexes: one lookup a word tells every list that holds it. */
const STOP_BITS = new Map<string, number>();
STOP_LISTS.forEach((list, i) => list.forEach((w) => STOP_BITS.set(w, (STOP_BITS.get(w) ?? 0) | (1 << i))));

/**
 * The stopwords of the language a text's words are in, read from which language's stopwords they use most (the
 * way stopword language identification reads it); a text using none of any (a title, a name) or as many of
 * English's as of another's gets English's. Sources may be written in another language than the run, so each
 * text is read on its own.
 */
export function textStopwords(words: readonly string[]): ReadonlySet<string> {
  const hits = STOP_LISTS.map(() => 0);
  for (const w of words) {
    const bits = STOP_BITS.get(w);
    if (bits) for (let i = 0; i < hits.length; i++) if (bits & (1 << i)) hits[i]!++;
  }
  let best = 0;
  for (const [i, n] of hits.entries()) if (n > hits[best]!) best = i;
  return STOP_LISTS[best]!;
}

/**
 * Pairs of opposite verdicts (either order). A pair of claims about the same subject where one holds a
 * word and the other its opposite (and not the word itself) contradicts.
 */
export const OPPOSITES: ReadonlyArray<readonly [string, string]> = [
  ['increase', 'decrease'],
  ['increased', 'decreased'],
  ['increases', 'decreases'],
  ['increasing', 'decreasing'],
  ['rise', 'fall'],
  ['rising', 'falling'],
  ['rose', 'fell'],
  ['higher', 'lower'],
  ['more', 'less'],
  ['gain', 'loss'],
  ['warming', 'cooling'],
  ['warmer', 'cooler'],
  ['true', 'false'],
  ['safe', 'unsafe'],
  ['safe', 'dangerous'],
  ['effective', 'ineffective'],
  ['legal', 'illegal'],
  ['accelerating', 'slowing'],
  ['growth', 'decline'],
  ['growing', 'shrinking'],
  ['positive', 'negative'],
  ['supports', 'refutes'],
  ['confirmed', 'refuted'],
  ['won', 'lost'],
  ['alive', 'dead'],
  ['largest', 'smallest'],
  ['oldest', 'youngest'],
  ['male', 'female'],
  ['man', 'woman'],
  ['men', 'women'],
  ['boy', 'girl'],
  ['boys', 'girls'],
  ['day', 'night'],
  ['inside', 'outside'],
  ['indoors', 'outdoors'],
  ['sitting', 'standing'],
  ['asleep', 'awake'],
  ['empty', 'full'],
  ['open', 'closed'],
  ['steigt', 'sinkt'],
  ['gestiegen', 'gesunken'],
  ['zunahme', 'abnahme'],
  ['höher', 'niedriger'],
  ['mehr', 'weniger'],
  ['erwärmung', 'abkühlung'],
  ['wahr', 'falsch'],
  ['sicher', 'gefährlich'],
  ['wirksam', 'unwirksam'],
  ['legal', 'illegal'],
  ['wachstum', 'rückgang'],
  ['hausse', 'baisse'],
  ['augmente', 'diminue'],
  ['aumenta', 'disminuye'],
  ['aumento', 'diminuzione'],
];
