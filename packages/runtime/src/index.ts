export * from './services';
export * from './embedded-lock';
