export * from './steps';
export * from './checkpoint';
export * from './orchestrator';
export { createPlainEngine, type PlainEngineConfig } from './plain-engine';
