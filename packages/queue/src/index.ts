export * from './research-job';
export * from './bull-queue';
export * from './bull-worker';
export * from './in-process-queue';
export * from './reconciler';
