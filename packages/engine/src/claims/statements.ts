import { REFERENCE_MARK } from './claim-text';

/**
 * Why a piece of page text is no statement a claim may rest on: a fragment that does not end as a sentence
 * does (a heading in sentence case, a caption, a menu item, a list's lead-in), a question, a title in
 * title case or capitals, navigation, the site speaking about itself or its terms, a notice about the
 * page's own publication, a reference-list entry, or markup.
 */
export type NonStatement =
  'fragment' | 'question' | 'heading' | 'navigation' | 'site' | 'publication' | 'reference' | 'markup';

// A sentence ends with a stop (Latin, CJK, Devanagari, Arabic), then perhaps closing quotes or brackets and
// reference marks ("[12]", "[citation needed]": REFERENCE_MARK).
export const SENTENCE_END = new RegExp(`[.!?…。！？।؟](?:["'”’»)\\]]|${REFERENCE_MARK})*\\s*$`, 'u');
const QUESTION = new RegExp(`[?？؟](?:["'”’»)\\]]|${REFERENCE_MARK})*\\s*$|^\\s*¿`, 'u');

// Menus, breadcrumbs, headline labels ("Africa|United States …") and bylines join their parts with these
// marks; prose does not.
const SEPARATOR = /\s[|•·]\s|[\p{L}\p{N}][|•][\p{L}\p{N}]|^[|•·]\s|\s[>»›]\s[^«‹]*\s[>»›]\s/u;

// A reference-list entry. Marks of their own: identifiers, retrieval and archive notes, volume(issue):
// pages, page ranges, the "^" of a back-link. Marks prose shares with them, two of which make a short text
// an entry: "et al.", "Surname, A. B." author lists, a year in parentheses closing a sentence (not the year
// of a quoted title, as prose gives it), a quoted title closed by a stop, a journal's or proceedings' name
// (a paragraph of prose holds several of them).
const REFERENCE_MARKS = [
  /\b(?:doi:?\s*)?10\.\d{4,9}\/\S+/iu,
  /\b(?:ISBN|ISSN|PMID|PMCID|arXiv|OCLC|JSTOR|Bibcode)\b/u,
  /\bRetrieved(?: on)? (?:\d|\p{Lu}\p{Ll}+ \d)/u,
  /\b(?:Archived from the original|Abgerufen am|Consulté le|Consultado el)\b/iu,
  /\b\d{1,4}\s*\(\d{1,4}(?:[–-]\d{1,4})?\)\s*:\s*\d/u,
  /\b\d{1,4}\s*\(\d{1,4}\)\s*,\s*\d+\s*[–-]\s*\d+/u,
  /\b(?:pp?\.|vol\.|S\.)\s*\d+\s*[–-]\s*\d+/iu,
  /^\s*[\^↑]/u,
];
const REFERENCE_HINTS = [
  /\bet al\./iu,
  /(?:^|[\s,;])\p{Lu}[\p{L}'’-]+,\s(?:\p{Lu}\.\s?){1,3}(?:,|;|&|and\b|\(\d{4})/u,
  /(?<!["”]\s?)\((?:\p{L}+\.? )?\d{4}[a-z]?\)[.,:]/u,
  /["“][^"”]{3,}(?:[.,]["”]|["”]\.)\s+\S/u,
  /\b(?:proceedings of|journal of|transactions on|annals of|bulletin of|in:)\s/iu,
];

/** Texts longer than this are prose when they hold only marks prose shares with references. */
const MAX_HINTED_REFERENCE = 300;

function isReference(text: string): boolean {
  if (REFERENCE_MARKS.some((mark) => mark.test(text))) return true;
  return text.length <= MAX_HINTED_REFERENCE && REFERENCE_HINTS.filter((hint) => hint.test(text)).length >= 2;
}

// The page speaking about itself: the article, the site, its newsletters, its printed edition, when it
// was updated and what built it.
const PUBLICATION =
  /\b(?:this|our) (?:article|story|page|post|site|website|web site|newsletter|e-?mail|video|gallery|blog|homepage|edition)\b|\b(?:dieser|diesen|dieses|diese) (?:Artikel|Artikels|Seite|Beitrag|Beitrags|Newsletter)\b|\b(?:cet article|cette page|ce site|este artículo|esta página|este sitio|questo articolo|questa pagina|questo sito)\b|\bappears? in print\b|\bprinted from\b|^\W*(?:last (?:updated|modified|edited)|(?:powered|created|generated|built) (?:by|using|with)|(?:posted|filed) (?:by|in|on|under))\b/iu;

// A byline: "By" (or "Written by", "Story by", "Photos by"; von, par, por, di) and a name of two to four
// capitalised words (case matters: no `i` flag, under which \p{Lu} takes lower case too), then at most the author's role and publication ("By Jane Doe, staff writer.", "By Jane Doe and
// John Smith, The Washington Post."): who wrote the page, not what it says. "By Monday, the storm…" names no one
// (one word), and "By New Year's Eve, the city ran out…" goes on in words that are no role.
const BYLINE_NAME = "\\p{Lu}[\\p{L}.'’-]*(?:\\s+\\p{Lu}[\\p{L}.'’-]*){1,3}";
const BYLINE_ROLE =
  "(?:staff|senior|special|contributing|freelance|chief|science|health|political|business|foreign|writers?|reporters?|correspondents?|editors?|columnists?|contributors?|photographers?|and|for|at|of|the|in|\\p{Lu}[\\p{L}.'’&-]*)";
const BYLINE = new RegExp(
  `^\\W*(?:(?:[Ww]ritten|[Ss]tory|[Ww]ords|[Tt]ext|[Rr]eporting|[Pp]hotos?|[Pp]hotographs?|[Ii]nterview)\\s+by|[Bb][Yy]|[Vv]on|[Pp]ar|[Pp]or|[Dd]i)\\s+` +
    `${BYLINE_NAME}(?:\\s+(?:and|und|et|y|e)\\s+${BYLINE_NAME})?(?:\\s*[,|–—-]\\s*${BYLINE_ROLE}(?:\\s+${BYLINE_ROLE})*)?\\s*\\.?\\s*$`,
  'u',
);

// Legal notices: copyright, trademarks, licences, reproduction rights.
const LEGAL =
  /[©®]|\b(?:copyright|all rights reserved|(?:registered )?trade ?marks? of|without (?:prior )?(?:express )?written permission|may not be (?:reproduced|published|republished|redistributed|copied)|alle rechte vorbehalten|droits réservés|derechos reservados|direitos reservados|diritti riservati)\b/iu;

// What a site says to its readers about the service itself (accounts, subscriptions, cookies, its terms),
// when it addresses the reader or speaks as "we".
const SITE_WORDS =
  /\b(?:cookies?|privacy (?:policy|notice|settings)|terms of (?:use|service)|user agreement|subscri(?:be|bers?|ption)s?|newsletters?|sign(?:ed)? (?:up|in)|log(?:ged)? ?in|e-?mail address|inbox|ad-?block\w*|homepage|datenschutz\w*|nutzungsbedingungen|anmelden|abonn\w+|confidentialité|connexion|inscri\w+|privacidad|suscr\w+|iscri\w+)\b/iu;
const READER =
  /\b(?:you|your|yours|you're|you’re|we|we're|we’ve|we've|us|our|du|dich|dein\w*|ihre?|wir|uns|vous|votre|vos|nous|usted|tu|tus|nosotros|voi|vostro|vostra|noi)\b/iu;
// Calls to act on the site that open a sentence: sign up, subscribe, follow, share, read more.
const CALL_TO_ACTION =
  /^\W*(?:sign (?:up|in)|log ?in|subscribe|register|join (?:us|our|the)|follow (?:us|our)|share (?:this|on)|read more|learn (?:more|about|how)|find out|discover (?:more|how)|welcome to|click|tap|download (?:our|the app)|get (?:the|our|unlimited|free)|become an? (?:member|subscriber)|melden sie sich|abonnieren sie|inscrivez-vous|abonnez-vous|suscríbete|regístrate|iscriviti|abbonati)\b/iu;

// Markup and code that leaked into the text: TeX, braces of code and templates, tags, entities, and
// several identifiers with underscores (one is a name prose may mention).
const MARKUP = /\{\\|\\[a-z]+\{|[{}]|<\/?[a-z]+>|&[a-z]+;/iu;
const IDENTIFIER = /\w_\w/gu;
const MAX_IDENTIFIERS = 2;

const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;

// The words a title leaves in lower case: articles, short prepositions and conjunctions of the service's
// languages. Any other word in lower case ("is", "also", "lag") makes a sentence of the text.
const TITLE_SMALL = new Set(
  (
    'a an the and but or nor for so yet at by in of on to up as via from with into over per than vs v ' +
    'der die das den dem des ein eine und oder von zu zum zur im in am an auf aus bei für mit nach über unter vor ' +
    'le la les l de du des d et ou à au aux en pour par sur dans un une ' +
    'el los las del y o con para una ' +
    'il lo i gli di della dei delle e da su'
  ).split(' '),
);

/**
 * A title in title case or in capitals: headlines, page titles, section and chapter headings, menus and
 * bylines, whose words all start upper case but articles, short prepositions and conjunctions. Scripts
 * without case have no such titles.
 */
function isTitleCase(text: string): boolean {
  let upper = 0;
  for (const word of text.match(WORD) ?? []) {
    const first = word[0]!;
    if (/\p{Ll}/u.test(first)) {
      if (!TITLE_SMALL.has(word.toLowerCase())) return false;
    } else if (/\p{Lu}/u.test(first)) upper++;
  }
  return upper >= 3;
}

export interface StatementOptions {
  /**
   * The text is a quote a model copied, which may have dropped the sentence's final stop: only a text read
   * as a sentence of the page (the extractive engine's) must end as one does.
   */
  quoted?: boolean;
}

/**
 * Why `text` (a sentence of a page, or a quote from one) is no statement a claim may rest on, or null when
 * it reads as one. The rules look at the shape of the text, never at its topic.
 */
export function nonStatementReason(text: string, options: StatementOptions = {}): NonStatement | null {
  const trimmed = text.trim();
  if (isReference(trimmed)) return 'reference';
  if (SEPARATOR.test(trimmed)) return 'navigation';
  if (MARKUP.test(trimmed) || (trimmed.match(IDENTIFIER)?.length ?? 0) > MAX_IDENTIFIERS) return 'markup';
  if (LEGAL.test(trimmed) || CALL_TO_ACTION.test(trimmed) || (SITE_WORDS.test(trimmed) && READER.test(trimmed)))
    return 'site';
  if (PUBLICATION.test(trimmed) || BYLINE.test(trimmed)) return 'publication';
  if (isTitleCase(trimmed)) return 'heading';
  if (QUESTION.test(trimmed)) return 'question';
  if (!options.quoted && !SENTENCE_END.test(trimmed)) return 'fragment';
  return null;
}

/** Blocks longer than this are prose, never one reference entry (and are not searched for its marks). */
const MAX_REFERENCE_BLOCK = 1_500;

/**
 * Why the block (line) of a page a sentence stands in makes it no statement: a reference-list entry, whose
 * title and journal the sentence splitter cuts into sentence-like pieces.
 */
export function blockReason(block: string): NonStatement | null {
  return block.length <= MAX_REFERENCE_BLOCK && isReference(block) ? 'reference' : null;
}

/**
 * The statement check of one text: `check(sentence, at)` is the blockReason of the line of `text` holding
 * offset `at`, else nonStatementReason of the sentence. Lines are judged once each, however many
 * sentences they hold. (A sentence never crosses a line, so a hard-wrapped paragraph's line ends are
 * fragments: half sentences, which are no statements either.)
 */
export function statementCheck(
  text: string,
  options: StatementOptions = {},
): (sentence: string, at: number) => NonStatement | null {
  let line = { start: 0, end: -1, reason: null as NonStatement | null };
  return (sentence, at) => {
    if (at >= 0 && at < text.length && (at < line.start || at > line.end)) {
      const start = text.lastIndexOf('\n', at) + 1;
      const newline = text.indexOf('\n', at);
      const end = newline < 0 ? text.length : newline;
      line = { start, end, reason: end - start <= MAX_REFERENCE_BLOCK ? blockReason(text.slice(start, end)) : null };
    }
    const block = at >= line.start && at <= line.end ? line.reason : null;
    return block ?? nonStatementReason(sentence, options);
  };
}

/** True when `text` reads as a statement (see nonStatementReason). */
export function isStatement(text: string, options: StatementOptions = {}): boolean {
  return nonStatementReason(text, options) === null;
}
