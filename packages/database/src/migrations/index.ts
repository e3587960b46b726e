import type { Migration } from 'kysely';
import * as initial from './2026-11-21T0000-initial';

/** Every migration, by name; names sort in the order they apply. */
export const MIGRATIONS: Record<string, Migration> = {
  '2026-11-21T0000-initial': initial,
};
