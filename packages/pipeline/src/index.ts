export * from './steps';
export * from './checkpoint';
export * from './orchestrator';
