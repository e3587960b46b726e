export * from './research-job';
export * from './bull-queue';
