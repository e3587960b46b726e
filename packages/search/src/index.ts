export * from './search-provider';
export { DEFAULT_RETRY_POLICY, retryAfterMs, type RetryPolicy } from './provider-http';
export { hitUrlKey } from './hit-url-key';
export { withSiteOperators, type QueryLimits } from './site-operators';
export { htmlToText, plainSnippet, isoDate } from './html-text';
export {
  createSearchProvider,
  isSearchProviderConfigured,
  searchProviderEndpoint,
  type SearchProviderDeps,
} from './create-search-provider';
export {
  SEARCH_PROVIDER_REGISTRY,
  SEARCH_PROVIDER_NAMES,
  isSearchProviderName,
  type SearchProviderName,
} from './providers';
export type { SearchProviderRegistration, SearchSettings } from './providers/provider-deps';
export { runSearches, type RunSearchesInput, type RunSearchesResult, type QueryFailure } from './run-searches';
export {
  createWikipediaProvider,
  wikipediaApiUrl,
  wikipediaArticleUrl,
  wikipediaLanguage,
  FALLBACK_WIKIPEDIA_LANGUAGE,
  type WikipediaProviderOptions,
} from './providers/wikipedia.provider';
export { createSearxngProvider, type SearxngProviderOptions } from './providers/searxng.provider';
export {
  createBraveProvider,
  braveSearchLanguage,
  BRAVE_API_URL,
  type BraveProviderOptions,
} from './providers/brave.provider';
export { createTavilyProvider, TAVILY_API_URL, type TavilyProviderOptions } from './providers/tavily.provider';
export {
  createLocalProvider,
  LocalSearchProvider,
  type LocalIndexedDocument,
  type LocalProviderOptions,
} from './providers/local.provider';
export {
  readLocalDocument,
  isLocalUrl,
  toLocalUrl,
  localUrlPath,
  LocalDocumentError,
  LOCAL_URL_PREFIX,
  type LocalDocument,
} from './local/local-url';
export { PdfTextExtractor, type PdfText } from './local/pdf-text';
export { localContentType, LOCAL_EXTENSIONS, type LocalContentType } from './local/local-documents';
