/**
 * The languages the Ask page offers, as the codes POST /v1/research takes (`language`, any code of 1 to 64
 * characters: the API does not judge it). The engine words a report in the first five (its own word lists and
 * report templates, packages/engine/src/text/language.ts); for the others the search looks in that language
 * and the report is worded in English, which the report's uncertainties say.
 */
export const REPORT_LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'de', name: 'German (Deutsch)' },
  { code: 'fr', name: 'French (Français)' },
  { code: 'es', name: 'Spanish (Español)' },
  { code: 'it', name: 'Italian (Italiano)' },
] as const;

export const SEARCH_LANGUAGES = [
  { code: 'nl', name: 'Dutch (Nederlands)' },
  { code: 'pt', name: 'Portuguese (Português)' },
  { code: 'pl', name: 'Polish (Polski)' },
  { code: 'sv', name: 'Swedish (Svenska)' },
  { code: 'da', name: 'Danish (Dansk)' },
  { code: 'nb', name: 'Norwegian (Norsk bokmål)' },
  { code: 'fi', name: 'Finnish (Suomi)' },
  { code: 'cs', name: 'Czech (Čeština)' },
] as const;
