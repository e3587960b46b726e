export * from './services';
export * from './embedded-lock';
export * from './initial-admin';
export * from './cli';
export * from './api';
export * from './signals';
export * from './worker';
export * from './standalone';
