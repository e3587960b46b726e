export * from './steps';
export * from './checkpoint';
export * from './orchestrator';
export { spanOccursIn } from './step-records';
