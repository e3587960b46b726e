export * from './steps';
export * from './checkpoint';
export * from './orchestrator';
export { createPlainEngine, type PlainEngineConfig } from './plain-engine';
// Used by @research/engine's plain web access (the MediaWiki search and page fetcher of the plain engine).
export { fetchStep, type FetchSettings } from './plain-engine/fetch.step';
export { searchMediaWiki, wikiEndpoints, type WikiEndpoints, type WikiHit } from './plain-engine/mediawiki';
export { spanOccursIn } from './step-records';
