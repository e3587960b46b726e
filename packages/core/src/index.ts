export * from './config';
export * from './errors';
export * from './domain';
export * from './text';
export { VERSION } from './version';
export * from './semaphore';
export * from './time-slice';
export * from './pdf-limits';
export * from './timeout';
