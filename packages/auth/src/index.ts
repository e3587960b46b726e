export * from './api-keys';
export * from './passwords';
