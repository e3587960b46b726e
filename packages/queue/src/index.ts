export * from './research-job';
