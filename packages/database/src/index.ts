export * from './schema';
export * from './connection';
export * from './repositories/users.repository';
export * from './repositories/api-keys.repository';
export * from './repositories/runs.repository';
export * from './repositories/retention.repository';
export * from './repositories/audit.repository';
export * from './repositories/results.repository';
export { MIGRATIONS } from './migrations';
