import { isUuid } from './ids';

/** Collections one run may search (POST /v1/research's `collection_ids`). */
export const MAX_RUN_COLLECTIONS = 10;

/** A collection's name, in characters. */
export const MAX_COLLECTION_NAME_CHARS = 200;

/**
 * Characters of a document's text that its full-text index covers (the rest is stored and cited, not searched):
 * a Postgres tsvector holds at most 1 MB, which a text of this length stays well under.
 */
export const MAX_INDEXED_DOCUMENT_CHARS = 400_000;

/**
 * The Postgres text search configuration of a collection's language (ISO 639-1, a region tag ignored): the
 * configurations every Postgres (and PGlite) ships; `simple` (no stemming, no stop words) for any other.
 */
const TEXT_SEARCH_CONFIGS: Readonly<Record<string, string>> = Object.freeze({
  ar: 'arabic',
  ca: 'catalan',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  eu: 'basque',
  fi: 'finnish',
  fr: 'french',
  ga: 'irish',
  hi: 'hindi',
  hu: 'hungarian',
  hy: 'armenian',
  id: 'indonesian',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  nl: 'dutch',
  no: 'norwegian',
  nb: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
});

/** The text search configuration a collection of `language` is indexed and searched with. */
export function textSearchConfig(language: string | null): string {
  if (language === null) return 'simple';
  const primary = language.trim().toLowerCase().split(/[-_]/, 1)[0]!;
  return TEXT_SEARCH_CONFIGS[primary] ?? 'simple';
}

/** Scheme of a collection document's URL: `collection://<collection_id>/<document_id>`. */
export const COLLECTION_URL_PREFIX = 'collection://';

/** The URL a collection document is searched, read and cited by. */
export function collectionDocumentUrl(collectionId: string, documentId: string): string {
  return `${COLLECTION_URL_PREFIX}${collectionId}/${documentId}`;
}

/** Whether `url` names a collection document (well-formed or not). */
export function isCollectionUrl(url: string): boolean {
  return url.startsWith(COLLECTION_URL_PREFIX);
}

/** The collection and document a collection URL names, or null when it names none. */
export function parseCollectionUrl(url: string): { collectionId: string; documentId: string } | null {
  if (!isCollectionUrl(url)) return null;
  const [collectionId, documentId, ...rest] = url.slice(COLLECTION_URL_PREFIX.length).split('/');
  if (rest.length > 0 || !collectionId || !documentId || !isUuid(collectionId) || !isUuid(documentId)) return null;
  return { collectionId: collectionId.toLowerCase(), documentId: documentId.toLowerCase() };
}

/**
 * The collections a run searches (`research_runs.collections`): their ids, and whether it searches the web
 * beside them (`web: false` for a run created with `collection_ids` and `include_domains: []`).
 */
export interface RunCollections {
  ids: string[];
  web: boolean;
}

/** The collections stored on a run, or null for a run that searches none. */
export function readRunCollections(stored: unknown): RunCollections | null {
  if (!stored || typeof stored !== 'object') return null;
  const s = stored as Record<string, unknown>;
  const ids = Array.isArray(s.ids) ? s.ids.filter((id): id is string => typeof id === 'string' && isUuid(id)) : [];
  if (ids.length === 0) return null;
  return { ids, web: s.web !== false };
}
